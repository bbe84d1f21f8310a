// The engine's limits and refusals on real images: bytes, pixels and time, damaged and disguised
// files (only ever an EngineError), and requests it will not run. What it makes:
// engine-output.test.ts.
import { crc32, deflateSync } from 'node:zlib'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { encodeBmp } from './bmp.ts'
import { createEngine, EngineError } from './index.ts'
import { animatedGif, chain, expectColour, pixels, plain, quadrants, RED } from './test-images.ts'

const engine = createEngine()
const QUADRANTS = await quadrants()
const GIF = await animatedGif()

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(EngineError)
  return error as EngineError
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

// A 300-byte PNG whose header claims 20000×20000 grey pixels (400 megapixels).
function pngBomb(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(20_000, 0)
  header.writeUInt32BE(20_000, 4)
  header.set([8, 0, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(20_001))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

async function noise(width: number, height: number): Promise<Buffer> {
  return await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer()
}

describe('limits', () => {
  it('refuses an input over the byte limit', async () => {
    const small = createEngine({ maxInputBytes: 100 })
    const error = await failure(small.transform({ input: QUADRANTS, operations: [] }))
    expect(error.code).toBe('input_too_large')
    expect(error.isClientError).toBe(true)
    expect((await failure(small.probe(QUADRANTS))).code).toBe('input_too_large')
  })

  it('refuses a decompression bomb before decoding it', async () => {
    const bomb = pngBomb()
    expect(bomb.length).toBeLessThan(1000)
    const error = await failure(engine.transform({ input: bomb, operations: chain('t.flip()') }))
    expect(error.code).toBe('too_many_pixels')
    expect((await failure(engine.probe(bomb))).code).toBe('too_many_pixels')
  })

  it('counts the pixels of every frame of an animation', async () => {
    const small = createEngine({ maxInputPixels: 500 })
    const error = await failure(small.transform({ input: GIF, operations: [] }))
    expect(error.code).toBe('too_many_pixels')
    await expect(
      small.transform({ input: await plain(20, 10, RED), operations: [] }),
    ).resolves.toBeDefined()
  })

  it.each([
    ['t.resize(w:12000)', {}],
    ['t.extend()', { maxOutputDimension: 80 }],
    ['t.rotate(a:45)', { maxOutputDimension: 70 }],
    ['t.merge(m:wrap,bg:ff0000ff,w:100,h:10,g:custom,l:10)', { maxOutputDimension: 100 }],
    ['ic.crop(w:200,h:100)', { maxOutputDimension: 150 }],
  ])('refuses %s over the output size limit', async (pattern, options) => {
    const limited = createEngine(options)
    const error = await failure(limited.transform({ input: QUADRANTS, operations: chain(pattern) }))
    expect(error.code).toBe('output_too_large')
  })

  it('applies the output limit after the dpr', async () => {
    const error = await failure(
      engine.transform({ input: QUADRANTS, operations: chain('t.resize(w:3000)'), dpr: 5 }),
    )
    expect(error.code).toBe('output_too_large')
  })

  it('stops a job that takes too long', async () => {
    const heavy = await noise(1500, 1500)
    const hasty = createEngine({ timeoutMs: 1, concurrency: 1 })
    const error = await failure(
      hasty.transform({ input: heavy, operations: chain('t.blur(s:100)') }),
    )
    expect(error.code).toBe('timeout')
    expect(error.isClientError).toBe(false)
  })

  it('queues jobs beyond the concurrency and runs them all', async () => {
    const single = createEngine({ concurrency: 1 })
    const results = await Promise.all(
      [8, 16, 24, 32].map((width) =>
        single.transform({ input: QUADRANTS, operations: chain(`t.resize(w:${width})`) }),
      ),
    )
    expect(results.map((result) => result.width)).toEqual([8, 16, 24, 32])
  })
})

describe('bad input', () => {
  it('refuses bytes that are not an image', async () => {
    const text = Buffer.from('This is certainly not an image, just some text.')
    expect((await failure(engine.transform({ input: text, operations: [] }))).code).toBe(
      'invalid_image',
    )
    expect((await failure(engine.probe(text))).code).toBe('invalid_image')
    expect((await failure(engine.probe(Buffer.alloc(0)))).code).toBe('invalid_image')
  })

  it('refuses a truncated JPEG and keeps the libvips error as the cause', async () => {
    const jpeg = await sharp(await noise(300, 200))
      .jpeg()
      .toBuffer()
    const truncated = jpeg.subarray(0, jpeg.length >> 1)
    const error = await failure(
      engine.transform({ input: truncated, operations: chain('t.flip()') }),
    )
    expect(error.code).toBe('invalid_image')
    expect(error.message).not.toMatch(/vips/i)
    expect(error.cause).toBeInstanceOf(Error)
    expect((await failure(engine.probe(truncated))).code).toBe('invalid_image')
  })

  it('refuses a truncated PNG', async () => {
    const png = await noise(300, 200)
    const truncated = png.subarray(0, png.length >> 1)
    const error = await failure(
      engine.transform({ input: truncated, operations: chain('t.flip()') }),
    )
    expect(error.code).toBe('invalid_image')
    expect((await failure(engine.probe(truncated))).code).toBe('invalid_image')
  })

  it.each(['avif', 'webp', 'gif', 'tiff'] as const)('refuses a truncated %s', async (format) => {
    const encoded = await sharp(await noise(120, 80))
      .toFormat(format, format === 'avif' ? { effort: 0 } : {})
      .toBuffer()
    const truncated = encoded.subarray(0, Math.floor(encoded.length * 0.6))
    const error = await failure(
      engine.transform({ input: truncated, operations: chain('t.flip()') }),
    )
    expect(error.code).toBe('invalid_image')
    expect((await failure(engine.probe(truncated))).code).toBe('invalid_image')
  })

  it('refuses an SVG whose rendered size exceeds the pixel limit', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>',
    )
    const error = await failure(engine.transform({ input: svg, operations: [] }))
    expect(error.code).toBe('too_many_pixels')
  })

  it('refuses a format it cannot read as unsupported', async () => {
    // A run-length-compressed BMP (BMPs are decoded by the engine itself, RLE ones are not).
    const bmp = encodeBmp({
      data: Buffer.alloc(12, 200),
      width: 2,
      height: 2,
      channels: 3,
      pages: 1,
    })
    bmp.writeUInt32LE(1, 30)
    const error = await failure(engine.transform({ input: bmp, operations: [] }))
    expect(error.code).toBe('unsupported_format')
  })

  it('rasterises an SVG without running its script or fetching its resources', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">' +
        '<script>throw new Error("ran")</script>' +
        '<image href="http://127.0.0.1:9/tracker.png" width="40" height="20"/>' +
        '<rect width="40" height="20" fill="#ff0000" onload="alert(1)"/></svg>',
    )
    const result = await engine.transform({ input: svg, operations: chain('t.resize(w:20)') })
    expect(result).toMatchObject({ format: 'png', width: 20, height: 10 })
    expectColour((await pixels(result.data)).at(10, 5), RED)
  })

  it('never throws anything but an EngineError on damaged files', async () => {
    const sources = [QUADRANTS, await sharp(QUADRANTS).jpeg().toBuffer(), GIF]
    const operations = chain('t.resize(w:20)~t.rotate(a:90)')
    let seed = 42
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let round = 0; round < 90; round++) {
      const source = sources[round % sources.length] as Buffer
      const damaged = Buffer.from(source)
      for (let flips = 0; flips < 1 + round / 10; flips++) {
        damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256)
      }
      const input =
        round % 7 === 0 ? damaged.subarray(0, Math.floor(random() * damaged.length)) : damaged
      await engine.transform({ input, operations }).catch((error: unknown) => {
        expect(error).toBeInstanceOf(EngineError)
      })
    }
  })
})

describe('refused requests', () => {
  it('refuses an operation no model here can run, with the reason', async () => {
    const error = await failure(
      engine.transform({ input: QUADRANTS, operations: chain('generate.bg()') }),
    )
    expect(error.code).toBe('model_unavailable')
    expect(error.message).toMatch(/generative image model/)
  })

  it('refuses a preset that was not expanded', async () => {
    const { value } = parsePattern('p:thumbnail')
    const error = await failure(engine.transform({ input: QUADRANTS, operations: value }))
    expect(error.code).toBe('not_runnable')
  })

  it('refuses a dpr out of range', async () => {
    const error = await failure(engine.transform({ input: QUADRANTS, operations: [], dpr: 9 }))
    expect(error.code).toBe('invalid_param')
  })

  it('refuses a parameter of the wrong type', async () => {
    const [operation] = chain('t.resize(w:10)')
    if (operation === undefined) throw new Error('no operation')
    const error = await failure(
      engine.transform({ input: QUADRANTS, operations: [{ ...operation, params: { w: 'ten' } }] }),
    )
    expect(error.code).toBe('invalid_param')
  })
})
