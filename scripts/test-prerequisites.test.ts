// The check `npm test` runs first: it names exactly what is missing and how to get it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  defaultChromePath,
  FULL_CHROMIUM_PATH,
  HEADLESS_SHELL_PATH,
  missingMessage,
  missingPrerequisites,
} from './test-prerequisites.ts'

describe('test prerequisites', () => {
  let dir: string
  let chrome: string
  let server: Server
  let openPort: number
  let closedPort: number

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-prereq-'))
    chrome = join(dir, 'chromium')
    await writeFile(chrome, '#!/bin/sh\n')
    server = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    openPort = (server.address() as { port: number }).port
    // A port that was free a moment ago: listen, note it, close.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPort = (probe.address() as { port: number }).port
    await new Promise((resolve) => probe.close(resolve))
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await rm(dir, { recursive: true, force: true })
  })

  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`

  it('finds nothing missing when the database listens and the browser exists', async () => {
    expect(await missingPrerequisites({ databaseUrl: url(openPort), chromePath: chrome })).toEqual(
      [],
    )
  })

  it('names a closed database port with the command that starts PostgreSQL', async () => {
    const missing = await missingPrerequisites({ databaseUrl: url(closedPort), chromePath: chrome })
    expect(missing).toHaveLength(1)
    expect(missing[0]).toContain(`PostgreSQL at 127.0.0.1:${closedPort}`)
    expect(missing[0]).toContain('pg_ctlcluster --skip-systemctl-redirect 15 main start')
  })

  it('names a missing browser with the command that installs Chromium', async () => {
    const absent = join(dir, 'no-chromium')
    const missing = await missingPrerequisites({ databaseUrl: url(openPort), chromePath: absent })
    expect(missing).toEqual([
      `Chromium at ${absent} (install it: apt-get update && apt-get install -y chromium-headless-shell; or set CHROME_PATH)`,
    ])
  })

  it('says both in one line when both are missing', async () => {
    const missing = await missingPrerequisites({
      databaseUrl: url(closedPort),
      chromePath: join(dir, 'none'),
    })
    const line = missingMessage(missing)
    expect(line).not.toContain('\n')
    expect(line).toMatch(/^npm test needs PostgreSQL at .+ and Chromium at .+$/)
  })

  it('drives the headless shell when it is installed, else the full Chromium', () => {
    expect(defaultChromePath((path) => path === HEADLESS_SHELL_PATH)).toBe(HEADLESS_SHELL_PATH)
    expect(defaultChromePath(() => true)).toBe(HEADLESS_SHELL_PATH)
    expect(defaultChromePath((path) => path === FULL_CHROMIUM_PATH)).toBe(FULL_CHROMIUM_PATH)
    expect(defaultChromePath(() => false)).toBe(FULL_CHROMIUM_PATH)
  })
})
