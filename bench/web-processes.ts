// The processes of the web benchmark (web.bench.ts): our server started as `npm start` runs it,
// the static peer, and stopping them.
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { ROOT } from './web-settings.ts'

export const children = new Set<ChildProcess>()

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address !== 'object') throw new Error('no port')
  return address.port
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts our server exactly as `npm start` does (after its build), on a temp data folder. */
export async function startOurs(
  dataDir: string,
  root = ROOT,
): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: root,
    // PUBLIC_URL is the origin the pages are visited on, as with `npm start` on localhost: the
    // CMS's image URLs are then same-origin, as on a real deployment.
    env: {
      ...process.env,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    const ok = await fetch(`${origin}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return { origin, child }
    await sleep(250)
  }
  throw new Error('the server did not answer within 120 s')
}

/** Starts the static baseline on `file`; resolves with its origin. */
export async function startStaticPeer(
  file: string,
): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, 'bench/web-static-peer.ts'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the static peer exited with ${code}`)))
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()))
  })
  return { origin, child }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(10_000)])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
