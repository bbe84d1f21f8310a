// The server renders the site with React's production build (issue 14: with NODE_ENV unset,
// React loaded its development build, whose prop checks and warnings made every render several
// times slower). Run in a child process: this test process has NODE_ENV=test and React loaded.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { webBuilt } from '../e2e/build-status.ts'

const INDEX = fileURLToPath(new URL('./index.ts', import.meta.url))

const SCRIPT = `
import { createRequire } from 'node:module'
const { createWebHandler, DEFAULT_RUNTIME_CONFIG } = await import(${JSON.stringify(INDEX)})
const handler = createWebHandler({
  config: DEFAULT_RUNTIME_CONFIG,
  localFetch: async () => new Response('{}', { status: 404 }),
  saveContact: async () => ({ ok: true }),
  log: () => {},
})
const response = await handler(new Request('http://localhost/about-us'))
await response.text()
const require = createRequire(${JSON.stringify(INDEX)})
// Importing CommonJS from ESM pre-parses both of React's builds (they appear in the cache); only
// the one that ran is \`loaded\`.
const react = Object.entries(require.cache)
  .filter(([file, module]) => module?.loaded === true && /[\\\\/]react(-dom)?[\\\\/]cjs[\\\\/]/.test(file))
  .map(([file]) => file)
console.log(JSON.stringify({ env: process.env.NODE_ENV, status: response.status, react }))
`

function run(env: Record<string, string | undefined>) {
  const { NODE_ENV: _, ...rest } = process.env
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    env: { ...rest, ...env },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
    env: string
    status: number
    react: string[]
  }
}

describe('the server render', () => {
  // It renders from the production build, made while the other tests run.
  beforeAll(webBuilt, 300_000)

  it('loads production React when NODE_ENV is not set', () => {
    const { env, status, react } = run({})
    expect(status).toBe(200)
    expect(env).toBe('production')
    expect(react.length).toBeGreaterThan(0)
    expect(react.filter((file) => file.includes('development'))).toEqual([])
  })

  it('keeps a NODE_ENV that was set', () => {
    const { env, react } = run({ NODE_ENV: 'development' })
    expect(env).toBe('development')
    expect(react.some((file) => file.includes('development'))).toBe(true)
  })
})
