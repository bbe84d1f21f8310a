// The package must run in browsers: no runtime dependencies and no Node built-ins in shipped code.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as api from './index.ts'

const root = join(import.meta.dirname, '..')
const sources = readdirSync(join(root, 'src'))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({ file, text: readFileSync(join(root, 'src', file), 'utf8') }))

describe('@tessera/url as a package', () => {
  it('has no runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(manifest.dependencies ?? {}).toEqual({})
    expect(manifest.license).toBe('MIT')
    expect(manifest.sideEffects).toBe(false)
  })

  it.each(sources.map(({ file, text }) => [file, text]))(
    'imports only its own modules in %s',
    (_file, text) => {
      const specifiers = [...text.matchAll(/^(?:import|export)\s[^'"]*from\s+'([^']+)'/gm)].map(
        (match) => match[1],
      )
      for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[\w-]+\.ts$/)
      expect(text).not.toMatch(/\b(?:require\(|process\.|Buffer\b|__dirname)/)
    },
  )

  it('documents every export with JSDoc', () => {
    const index = readFileSync(join(root, 'src', 'index.ts'), 'utf8')
    const entries = [...index.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((match) =>
      (match[1] as string)
        .split(',')
        .map((entry) => entry.trim().replace(/^type\s+/, ''))
        .filter((entry) => entry !== '')
        .map((entry) => entry.split(/\s+as\s+/)),
    )
    const published = new Set(entries.map((names) => names.at(-1)))
    for (const name of Object.keys(api)) expect(published).toContain(name)
    const exported = new Set(entries.map((names) => names[0] as string))
    const documented = new Set<string>()
    for (const { text } of sources) {
      for (const match of text.matchAll(
        /\/\*\*[\s\S]*?\*\/\s*export\s+(?:async\s+)?(?:function|const|class|type|interface)\s+(\w+)/g,
      )) {
        documented.add(match[1] as string)
      }
    }
    const missing = [...exported].filter((name) => !documented.has(name))
    expect(missing).toEqual([])
  })
})
