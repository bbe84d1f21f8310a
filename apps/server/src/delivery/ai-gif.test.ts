// An AI step on an animated GIF sees its first frame: the delivery answer says so in a header,
// and the transformation context in the step's data (issue 20: both were silent).
import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { defaultTestDatabase } from '../test-server.ts'
import { fetchWhileQueued } from '../test-suite.ts'
import type { TransformationContextAnswer } from '../transformation/context.ts'
import { SAMPLES, SLOW, smallCat, useAiServer, useAiService } from './ai-operations-suite.ts'

const ai = useAiService()

// Two frames of the cat, the second upside down.
async function animation(): Promise<Buffer> {
  const cat = await sharp(await readFile(new URL('chelsea.png', SAMPLES)))
    .resize(96, 64)
    .removeAlpha()
    .raw()
    .toBuffer()
  const flipped = await sharp(cat, { raw: { width: 96, height: 64, channels: 3 } })
    .flip()
    .raw()
    .toBuffer()
  return await sharp(Buffer.concat([cat, flipped]), {
    raw: { width: 96, height: 128, channels: 3, pageHeight: 64 },
  })
    .gif()
    .toBuffer()
}

describe('an AI operation on an animated GIF, over HTTP', () => {
  const { suite, urlOf, contextOf } = useAiServer(defaultTestDatabase(), ai, {
    'in/cat.gif': animation,
    'in/cat.png': smallCat,
  })

  async function deliver(path: string): Promise<Response> {
    const response = await fetchWhileQueued(`${suite.server.url}${urlOf('qr.scan()', path)}`)
    expect(response.status).toBe(200)
    return response
  }

  it(
    'answers x-ai-frames: first, and the context says firstFrameOnly with the frame count',
    async () => {
      const response = await deliver('in/cat.gif')
      expect(response.headers.get('x-ai-frames')).toBe('first')
      await response.arrayBuffer()
      // Served again from the cache: the header stays.
      const again = await fetch(`${suite.server.url}${urlOf('qr.scan()', 'in/cat.gif')}`)
      expect(again.headers.get('x-ai-frames')).toBe('first')
      await again.arrayBuffer()
      const answer = await contextOf(urlOf('qr.scan()', 'in/cat.gif'))
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      const [step] = (answer.body as TransformationContextAnswer).context.steps
      expect(step?.data).toMatchObject({ found: false, firstFrameOnly: true, frames: 2 })
    },
    SLOW,
  )

  it(
    'sends no such header for a PNG',
    async () => {
      const response = await deliver('in/cat.png')
      expect(response.headers.get('x-ai-frames')).toBeNull()
      await response.arrayBuffer()
    },
    SLOW,
  )
})
