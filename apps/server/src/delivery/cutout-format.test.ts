// A cut-out keeps its transparency over HTTP whatever the stored file's format: erase.bg of a
// JPEG answers a PNG (WebP or AVIF under f_auto), the transformation context says which, and
// only an explicit t.toFormat(f:jpeg) flattens it. One AI service for the file (ISNet loads
// once); the run's one database, small inputs.
import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { defaultTestDatabase } from '../test-server.ts'
import { fetchWhileQueued } from '../test-suite.ts'
import type { TransformationContextAnswer } from '../transformation/context.ts'
import { SAMPLES, SLOW, useAiServer, useAiService } from './ai-operations-suite.ts'

const ai = useAiService()

describe('cut-outs over HTTP', () => {
  const {
    suite,
    contextOf,
    urlOf: deliveryUrl,
  } = useAiServer(defaultTestDatabase(), ai, {
    'in/portrait.jpg': async () =>
      await sharp(await readFile(new URL('astronaut.png', SAMPLES)))
        .resize(256, 256)
        .jpeg()
        .toBuffer(),
  })
  const urlOf = (pattern: string, query = '') =>
    `${deliveryUrl(pattern, 'in/portrait.jpg')}${query}`

  /** 202 while the job runs, then the image. */
  async function deliver(pattern: string, query = '', accept?: string) {
    const url = `${suite.server.url}${urlOf(pattern, query)}`
    const headers: Record<string, string> = accept === undefined ? {} : { accept }
    const response = await fetchWhileQueued(url, { headers })
    expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(200)
    const data = Buffer.from(await response.arrayBuffer())
    const { data: pixels, info } = await sharp(data)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const at = (x: number, y: number, c: number) => pixels[(y * info.width + x) * 4 + c]
    return {
      type: response.headers.get('content-type'),
      hasAlpha: (await sharp(data).metadata()).hasAlpha,
      alpha: (x: number, y: number) => at(x, y, 3),
      red: (x: number, y: number) => at(x, y, 0),
    }
  }

  it(
    'answers erase.bg of a JPEG as a transparent PNG, and the context says png',
    async () => {
      const image = await deliver('erase.bg()')
      expect(image.type).toBe('image/png')
      expect(image.hasAlpha).toBe(true)
      expect(image.alpha(4, 4)).toBe(0)
      expect(image.alpha(110, 70)).toBe(255)
      const answer = await contextOf(urlOf('erase.bg()'))
      expect(answer.status).toBe(200)
      const { context } = answer.body as TransformationContextAnswer
      expect(context.output).toEqual({ format: 'png', hasAlpha: true })
      expect(context.metadata.format).toBe('jpeg')
      expect(context.steps.at(-1)).toMatchObject({ name: 'bg', hasAlpha: true, channels: 4 })
    },
    SLOW,
  )

  it(
    'answers WebP with alpha under f_auto, and flattens on white only for t.toFormat(f:jpeg)',
    async () => {
      const webp = await deliver('remove.bg()', '?f_auto=true', 'image/webp,*/*')
      expect(webp.type).toBe('image/webp')
      expect(webp.hasAlpha).toBe(true)
      expect(webp.alpha(4, 4)).toBe(0)
      const jpeg = await deliver('erase.bg()~t.toFormat(f:jpeg)')
      expect(jpeg.type).toBe('image/jpeg')
      expect(jpeg.hasAlpha).toBe(false)
      expect(jpeg.red(4, 4)).toBeGreaterThan(245)
    },
    SLOW,
  )
})
