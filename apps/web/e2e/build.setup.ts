// Vitest global setup: build the web app (client and server bundles) before the tests run.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

export default function setup() {
  const cwd = fileURLToPath(new URL('..', import.meta.url))
  const cli = createRequire(import.meta.url)
    .resolve('@react-router/dev/package.json')
    .replace(/package\.json$/, 'bin.cjs')
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build: the
  // browser tests must run what `npm start` serves.
  const result = spawnSync(process.execPath, [cli, 'build'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) {
    throw new Error(`react-router build failed:\n${result.stdout}\n${result.stderr}`)
  }
}
