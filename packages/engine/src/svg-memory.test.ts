// Issue 19 finding 2: one process rendering a many-element SVG at several sizes kept every
// render's document resident (sharp's default operation cache: 1.3 → 6.1 GB for ~200k elements
// at six sizes). With the engine's cache settings and SVG limits, the same renders of an SVG at
// the element limit keep the process's RSS growth under SVG_MEMORY_BOUND_MB, and a 200,000-element
// SVG is refused before librsvg reads it. Measured in a child process of its own.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/** The stated bound (docs/security.md): six renders at the element limit, all cached. */
export const SVG_MEMORY_BOUND_MB = 400

const CHILD = fileURLToPath(new URL('../test/svg-memory-child.ts', import.meta.url))

describe('the memory of SVG renders', () => {
  it('keeps RSS growth of six sizes of an SVG at the element limit under the bound', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      timeout: 120_000,
    })
    const report = JSON.parse(stdout.trim().split('\n').pop() as string) as {
      before: number
      after: number
      peak: number
      refused: string
      afterRefusal: number
    }
    expect(report.peak - report.before, JSON.stringify(report)).toBeLessThan(SVG_MEMORY_BOUND_MB)
    expect(report.refused).toBe('too_many_pixels')
    // Refused before parsing: the 200,000-element SVG adds (almost) nothing.
    expect(report.afterRefusal - report.after, JSON.stringify(report)).toBeLessThan(50)
  }, 180_000)
})
