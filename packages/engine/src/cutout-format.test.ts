import { readFileSync } from 'node:fs'
import { createAi } from '@tessera/ai'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from './index.ts'

// One AI service for the file: ISNet loads once, and its thread ends with the file.
const ai = createAi({ timeoutMs: 600_000 })
const engine = createEngine({ ai })
afterAll(() => ai.close())

const SLOW = 900_000
const SAMPLES = new URL('../../../apps/server/demo/samples/', import.meta.url)
const PORTRAIT = await sharp(readFileSync(new URL('astronaut.png', SAMPLES)))
  .resize(256, 256)
  .raw()
  .toBuffer({ resolveWithObject: true })

async function portraitAs(format: 'jpeg' | 'gif' | 'webp' | 'tiff'): Promise<Buffer> {
  const { width, height, channels } = PORTRAIT.info
  return await sharp(PORTRAIT.data, { raw: { width, height, channels } })
    .toFormat(format)
    .toBuffer()
}

async function cutOut(input: Buffer, pattern: string, accept?: string) {
  const { value, issues } = parsePattern(pattern)
  expect(issues).toEqual([])
  const result = await engine.transform({
    input,
    operations: value,
    ...(accept === undefined ? {} : { accept, autoFormat: true }),
  })
  const decoded = await sharp(result.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const metadata = await sharp(result.data).metadata()
  const alpha = (x: number, y: number) => decoded.data[(y * decoded.info.width + x) * 4 + 3]
  const red = (x: number, y: number) => decoded.data[(y * decoded.info.width + x) * 4]
  return { result, metadata, alpha, red }
}

describe('a cut-out keeps its transparency whatever the source format', () => {
  it(
    'answers erase.bg of a JPEG as a PNG: the backdrop transparent, the face opaque',
    async () => {
      const { result, metadata, alpha } = await cutOut(await portraitAs('jpeg'), 'erase.bg()')
      expect(result.format).toBe('png')
      expect(result.contentType).toBe('image/png')
      expect(metadata.hasAlpha).toBe(true)
      expect(alpha(8, 8)).toBe(0)
      expect(alpha(250, 8)).toBe(0)
      expect(alpha(110, 70)).toBe(255)
      expect(result.steps.at(-1)).toMatchObject({ name: 'erase.bg', hasAlpha: true })
    },
    SLOW,
  )

  it(
    'answers WebP or AVIF with alpha under f_auto when the browser takes them',
    async () => {
      const jpeg = await portraitAs('jpeg')
      const webp = await cutOut(jpeg, 'erase.bg()', 'image/webp,*/*')
      expect(webp.result.format).toBe('webp')
      expect(webp.metadata.hasAlpha).toBe(true)
      expect(webp.alpha(8, 8)).toBe(0)
      const avif = await cutOut(jpeg, 'remove.bg()', 'image/avif,image/webp')
      expect(avif.result.format).toBe('avif')
      expect(avif.metadata.hasAlpha).toBe(true)
      expect(avif.alpha(8, 8)).toBeLessThan(8)
    },
    SLOW,
  )

  it(
    'answers GIF and TIFF sources as PNG (browsers show no TIFF) and keeps a WebP source WebP',
    async () => {
      for (const format of ['gif', 'tiff'] as const) {
        const png = await cutOut(await portraitAs(format), 'erase.bg()')
        expect(png.result.format).toBe('png')
        expect(png.alpha(8, 8)).toBe(0)
      }
      const kept = await cutOut(await portraitAs('webp'), 'erase.bg()')
      expect(kept.result.format).toBe('webp')
      expect(kept.alpha(8, 8)).toBe(0)
    },
    SLOW,
  )

  it(
    'flattens on white only when the chain asks for JPEG',
    async () => {
      const { result, metadata, alpha, red } = await cutOut(
        await portraitAs('jpeg'),
        'erase.bg()~t.toFormat(f:jpeg)',
      )
      expect(result.format).toBe('jpeg')
      expect(metadata.hasAlpha).toBe(false)
      expect(alpha(8, 8)).toBe(255)
      expect(red(8, 8)).toBeGreaterThan(245)
    },
    SLOW,
  )
})
