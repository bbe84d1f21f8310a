// A private PostgreSQL server for the cluster: its own data folder and port, so the cluster (and
// its fault tests) can stop and restart it without touching the machine's shared server.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdir } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin'

/** A PostgreSQL server this process started; `stop`/`start` keep the data. */
export interface PrivatePostgres {
  /** Connection URL of the `postgres` database (user postgres, trust on loopback). */
  url: string
  port: number
  dataDir: string
  start(): Promise<void>
  /** Fast shutdown: open connections are ended, as in a restart for maintenance. */
  stop(): Promise<void>
}

/** Whether this machine has the PostgreSQL server binaries the private server needs. */
export function hasPostgresBinaries(): boolean {
  return existsSync(join(POSTGRES_BIN, 'initdb')) && existsSync(join(POSTGRES_BIN, 'pg_ctl'))
}

/**
 * Creates a data folder in `dir` and starts PostgreSQL on 127.0.0.1:`port`. PostgreSQL refuses
 * to run as root, so as root the server runs as the `postgres` user (which owns `dir`).
 */
export async function startPrivatePostgres(dir: string, port: number): Promise<PrivatePostgres> {
  const dataDir = join(dir, 'data')
  const logFile = join(dir, 'postgres.log')
  const asRoot = userInfo().uid === 0
  let owner: { uid: number; gid: number } | undefined
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    owner = { uid: Number(stdout.trim()), gid: Number(gid.trim()) }
  }
  await mkdir(dir, { recursive: true })
  if (owner !== undefined) await chown(dir, owner.uid, owner.gid)
  await chmod(dir, 0o700)
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(POSTGRES_BIN, name), ...args])
      : run(join(POSTGRES_BIN, name), args)

  await tool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'])
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c max_connections=200',
  ].join(' ')
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async start() {
      await tool('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start'])
    },
    async stop() {
      await tool('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'])
    },
  }
  await server.start()
  return server
}
