// The server mounts its routers under the API base paths of `@tessera/url` and the website calls
// them from the same list: neither spells a base path itself, so they cannot drift apart.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PANEL_API_PATHS, PUBLIC_API_PATHS } from '@tessera/url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SOURCES = ['apps/server/src', 'apps/web/app']

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name.startsWith('+') ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|-suite\.tsx?$|^test-/.test(entry.name)
      ? [path]
      : []
  })
}

describe('API base paths have one home', () => {
  const bases = [...Object.values(PUBLIC_API_PATHS), ...Object.values(PANEL_API_PATHS)].filter(
    (base) => base.includes('/v1.0') || base.endsWith('.json'),
  )

  it('are spelled by no code of the server or the website', () => {
    const files = SOURCES.flatMap(sourceFiles)
    expect(files.length).toBeGreaterThan(50)
    const found = files.flatMap((file) => {
      // Comments may name a path for the reader; code may not.
      const text = readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(?:\/\/|\/?\*)/.test(line))
        .join('\n')
      return bases.filter((base) => text.includes(base)).map((base) => `${file}: ${base}`)
    })
    expect(found).toEqual([])
  })
})
