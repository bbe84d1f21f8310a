// Each setting is declared once, in env.ts; the settings tables of README.md (the server) and
// docs/web.md (the website) are checked against it, so a variable cannot be added, renamed or
// given a new default without its row following.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENV } from './env.ts'

const ROOT = join(import.meta.dirname, '../../../..')

/** Variables in the tables that env.ts does not read: the process or another package reads them. */
const READ_ELSEWHERE = new Set([
  // glibc and libuv, read when the process starts (set by `npm start`, the cluster, the image)
  'MALLOC_ARENA_MAX',
  'UV_THREADPOOL_SIZE',
  // @tessera/ai's resolveAiSettings
  'AI_CONCURRENCY',
  'AI_TIMEOUT_MS',
  'AI_MAX_INPUT_PIXELS',
  'AI_IDLE_MS',
  'AI_THREADS',
])

interface Row {
  file: string
  names: string[]
  defaults: string
}

/** The rows of the first table under `heading` whose first column names variables. */
function settingsRows(file: string, heading: string): Row[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const section = text.slice(text.indexOf(heading))
  const table = /(?:^\|.*\|\n)+/m.exec(section)?.[0] ?? ''
  return table
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells.length > 3 && /^`[A-Z]/.test(cells[1] ?? ''))
    .map((cells) => ({
      file,
      names: [...(cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_*]+)`/g)].map((m) => m[1] as string),
      defaults: cells[2] ?? '',
    }))
}

/** `WEB_TOOL_*_URL` stands for every variable it matches. */
function expand(name: string, known: readonly string[]): string[] {
  if (!name.includes('*')) return [name]
  const pattern = new RegExp(`^${name.replace('*', '[A-Z0-9_]+')}$`)
  return known.filter((variable) => pattern.test(variable))
}

/** A default as the tables write it: `4201`, `true`, 50 MiB, 4 GiB. */
function written(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`|(\d+) ([MG])iB/g)].map((m) =>
    m[1] !== undefined ? m[1] : String(Number(m[2]) * 1024 ** (m[3] === 'M' ? 2 : 3)),
  )
}

const variables = Object.keys(ENV.shape)
const rows = [
  ...settingsRows('README.md', '## Settings'),
  ...settingsRows('docs/web.md', '## Settings'),
]
const listed = rows.flatMap((row) => row.names.flatMap((name) => expand(name, variables)))
const defaults = ENV.parse({}) as Record<string, unknown>

describe('the settings tables', () => {
  it('list every variable env.ts reads', () => {
    expect(variables.filter((name) => !listed.includes(name))).toEqual([])
  })

  it('list no variable nothing reads', () => {
    expect(listed.filter((name) => !variables.includes(name) && !READ_ELSEWHERE.has(name))).toEqual(
      [],
    )
  })

  it('list each variable once in a file (docs/web.md may repeat a server setting the site uses)', () => {
    const keys = rows.flatMap((row) => row.names.map((name) => `${row.file} ${name}`))
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([])
  })

  it("give a plain default as env.ts has it, where a row's defaults pair with its names", () => {
    const wrong: string[] = []
    for (const row of rows) {
      const values = written(row.defaults)
      if (values.length !== row.names.length) continue
      row.names.forEach((name, index) => {
        const value = defaults[name]
        if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'string')
          return
        if (String(value) !== values[index]) wrong.push(`${name}: ${values[index]} ≠ ${value}`)
      })
    }
    expect(wrong).toEqual([])
  })
})
