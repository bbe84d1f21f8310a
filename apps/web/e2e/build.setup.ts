// Vitest global setup of the browser project: build the web app (client and server bundles) while
// the tests run, not before them. Global setups all finish before any test worker starts, so a
// build awaited here would hold up every project (the packages', the server's, the web unit
// tests). The build runs beside them instead; the browser suites wait for it in the harness
// (`webBuilt`), through a status file whose path is provided to them as `webBuildStatus`.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import type { WebBuildStatus } from './build-status.ts'

export default function setup(project: TestProject) {
  const cwd = fileURLToPath(new URL('..', import.meta.url))
  const cli = createRequire(import.meta.url)
    .resolve('@react-router/dev/package.json')
    .replace(/package\.json$/, 'bin.cjs')
  const statusFile = join(tmpdir(), `tessera-web-build-${randomBytes(6).toString('hex')}.json`)
  const write = (status: WebBuildStatus) => writeFileSync(statusFile, JSON.stringify(status))
  write({ state: 'building' })
  project.provide('webBuildStatus', statusFile)
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build: the
  // browser tests must run what `npm start` serves.
  const build = spawn(process.execPath, [cli, 'build'], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  build.stdout.on('data', (chunk) => {
    output += chunk
  })
  build.stderr.on('data', (chunk) => {
    output += chunk
  })
  const finished = new Promise<void>((resolve) => {
    build.once('error', (error) => {
      write({ state: 'failed', output: `${output}\n${error.message}` })
      resolve()
    })
    build.once('close', (code) => {
      write(
        code === 0
          ? { state: 'built' }
          : { state: 'failed', output: `react-router build failed:\n${output}` },
      )
      resolve()
    })
  })
  return async () => {
    // A run that ends early (a failure with --bail, a filter) does not leave a build behind it.
    if (build.exitCode === null) build.kill()
    await finished
    rmSync(statusFile, { force: true })
  }
}
