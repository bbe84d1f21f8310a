import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BREAKPOINTS } from './tokens.ts'

const APP = fileURLToPath(new URL('..', import.meta.url))

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return cssFiles(path)
    return entry.name.endsWith('.css') ? [path] : []
  })
}

describe('design tokens (SPEC §9)', () => {
  it('uses only the SPEC breakpoints in media queries', () => {
    const allowed = new Set(Object.values(BREAKPOINTS).flatMap((px) => [px, px - 1]))
    for (const file of cssFiles(APP)) {
      const css = readFileSync(file, 'utf8')
      for (const match of css.matchAll(/@media[^{]*?(\d+)px/g)) {
        expect(allowed.has(Number(match[1])), `${file}: ${match[0]}`).toBe(true)
      }
    }
  })

  it('mirrors the sizes of tokens.ts in tokens.css', () => {
    const css = readFileSync(join(APP, 'styles/tokens.css'), 'utf8')
    for (const [name, px] of [
      ['--header-height', 68],
      ['--header-height-mobile', 56],
      ['--dropdown-width', 240],
      ['--content-max-width', 1440],
      ['--container-max-width', 1200],
      ['--button-height', 48],
      ['--button-height-small', 40],
      ['--button-height-large', 56],
      ['--profile-name-max', 120],
      ['--profile-name-max-mobile', 90],
    ] as const) {
      expect(css).toContain(`${name}: ${px}px;`)
    }
  })
})
