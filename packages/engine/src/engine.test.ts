import { crc32, deflateSync } from 'node:zlib'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { encodeBmp } from './bmp.ts'
import { chooseOutputFormat, createEngine, EngineError } from './index.ts'
import {
  animatedGif,
  BLUE,
  chain,
  expectColour,
  GREEN,
  HORSE,
  halfTransparent,
  pixels,
  plain,
  quadrants,
  RED,
  WHITE,
} from './test-images.ts'

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

describe('output format', () => {
  it('keeps the source format', async () => {
    expect(
      (await engine.transform({ input: QUADRANTS, operations: chain('t.flip()') })).format,
    ).toBe('png')
    const jpeg = await sharp(QUADRANTS).jpeg().toBuffer()
    const result = await engine.transform({ input: jpeg, operations: chain('t.flip()') })
    expect(result).toMatchObject({
      format: 'jpeg',
      contentType: 'image/jpeg',
      width: 64,
      height: 48,
    })
  })

  it.each([
    ['image/avif,image/webp,*/*', 'avif'],
    ['image/webp,*/*', 'webp'],
    ['*/*', 'png'],
  ])('picks the format of Accept: %s with f_auto', async (accept, format) => {
    const result = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.resize(w:32)'),
      autoFormat: true,
      accept,
    })
    expect(result.format).toBe(format)
    expect((await pixels(result.data)).width).toBe(32)
  })

  it('lets t.toFormat win over f_auto', async () => {
    const result = await engine.transform({
      input: QUADRANTS,
      operations: chain('t.toFormat(f:jpeg)'),
      autoFormat: true,
      accept: 'image/avif',
    })
    expect(result.format).toBe('jpeg')
  })

  it('agrees with chooseOutputFormat', () => {
    const request = {
      sourceFormat: 'png',
      operations: chain('t.flip()'),
      autoFormat: true,
      accept: 'image/webp',
    }
    expect(engine.chooseOutputFormat(request)).toBe(chooseOutputFormat(request))
  })

  it('shows transparent areas on white in a JPEG', async () => {
    const result = await engine.transform({
      input: await halfTransparent(),
      operations: chain('t.toFormat(f:jpeg)'),
    })
    const out = await pixels(result.data)
    expectColour(out.at(4, 4), RED, 16)
    expectColour(out.at(28, 4), WHITE, 4)
  })
})

describe('output pixels and metadata', () => {
  it('applies the EXIF orientation', async () => {
    const rotated = await sharp(QUADRANTS).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    const result = await engine.transform({ input: rotated, operations: chain('t.resize(h:32)') })
    expect([result.width, result.height]).toEqual([24, 32])
    const out = await pixels(result.data)
    expectColour(out.at(2, 2), BLUE, 24)
    expectColour(out.at(21, 2), RED, 24)
  })

  it('strips the metadata', async () => {
    const tagged = await sharp(QUADRANTS)
      .withExif({ IFD0: { Copyright: 'SECRET', Artist: 'Someone' } })
      .jpeg()
      .toBuffer()
    expect((await sharp(tagged).metadata()).exif).toBeDefined()
    const result = await engine.transform({ input: tagged, operations: chain('t.flip()') })
    const metadata = await sharp(result.data).metadata()
    expect(metadata.exif).toBeUndefined()
    expect(metadata.icc).toBeUndefined()
  })

  it('converts the colours to sRGB', async () => {
    const wide = await sharp(await plain(8, 8, RED))
      .withIccProfile('p3')
      .png()
      .toBuffer()
    const stored = await sharp(wide, { ignoreIcc: true }).raw().toBuffer()
    expect(stored[0]).toBeLessThan(245)
    const result = await engine.transform({ input: wide, operations: chain('t.flop()') })
    expect((await sharp(result.data).metadata()).hasProfile).toBe(false)
    expectColour((await pixels(result.data)).at(2, 2), RED, 4)
  })

  it('processes a real photograph', async () => {
    const result = await engine.transform({
      input: HORSE,
      operations: chain('t.resize(w:200)~t.flatten(b:ffffff)~t.toFormat(f:webp)'),
    })
    expect(result).toMatchObject({ format: 'webp', width: 200, height: 164 })
    const out = await pixels(result.data)
    expectColour(out.at(2, 2), WHITE, 8)
    expectColour(out.at(100, 80), [0, 0, 0, 255], 24)
  })
})

describe('animations', () => {
  it('keeps an animated GIF animated through a resize', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.resize(w:10)~t.flop()'),
    })
    expect(result).toMatchObject({ format: 'gif', width: 10, height: 5 })
    const out = await pixels(result.data)
    expect(out.pages).toBe(3)
    expectColour(out.at(5, 2, 0), RED, 16)
    expectColour(out.at(5, 2, 1), GREEN, 16)
    expectColour(out.at(5, 2, 2), BLUE, 16)
    expect((await sharp(result.data).metadata()).delay).toEqual([100, 200, 300])
  })

  it('keeps the frames through steps that run on raw pixels', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.extend(t:2,l:0,b:0,r:0)~t.resize(w:10,h:6)~t.negate()'),
    })
    const out = await pixels(result.data)
    expect([out.width, out.height, out.pages]).toEqual([10, 6, 3])
    expectColour(out.at(5, 4, 1), [255, 0, 255, 255], 16)
    expect((await sharp(result.data).metadata()).delay).toEqual([100, 200, 300])
  })

  it('becomes an animated WebP with f_auto when WebP is accepted', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.resize(w:10)'),
      autoFormat: true,
      accept: 'image/avif,image/webp',
    })
    expect(result.format).toBe('webp')
    expect((await pixels(result.data)).pages).toBe(3)
  })

  it('stays a GIF with f_auto when only AVIF is accepted', async () => {
    const result = await engine.transform({
      input: GIF,
      operations: chain('t.resize(w:10)'),
      autoFormat: true,
      accept: 'image/avif',
    })
    expect(result.format).toBe('gif')
  })

  it('keeps every frame through rotate, flip and the neighbourhood filters, frame by frame', async () => {
    for (const pattern of [
      't.rotate(a:90)',
      't.rotate(a:30)~t.resize(w:16)',
      't.flip()~t.blur(s:2)',
      't.sharpen(s:2)~t.median(s:3)',
    ]) {
      const result = await engine.transform({ input: GIF, operations: chain(pattern) })
      expect(result.format, pattern).toBe('gif')
      const out = await pixels(result.data)
      expect(out.pages, pattern).toBe(3)
      // Each frame keeps its own colour: nothing bled across frames.
      const x = Math.floor(out.width / 2)
      const y = Math.floor(out.height / 2)
      expectColour(out.at(x, y, 0), RED, 24)
      expectColour(out.at(x, y, 1), GREEN, 24)
      expectColour(out.at(x, y, 2), BLUE, 24)
      expect((await sharp(result.data).metadata()).delay).toEqual([100, 200, 300])
    }
    const turned = await pixels(
      (await engine.transform({ input: GIF, operations: chain('t.rotate(a:90)') })).data,
    )
    expect([turned.width, turned.height]).toEqual([10, 20])
  })

  it('trims every frame of an animation by the edges of its first', async () => {
    const framed = await sharp(
      Buffer.concat(
        [RED, GREEN, BLUE].map((colour) => {
          const frame = Buffer.alloc(20 * 10 * 3, 255)
          for (let y = 3; y < 7; y++) {
            for (let x = 5; x < 15; x++) frame.set(colour.slice(0, 3), (y * 20 + x) * 3)
          }
          return frame
        }),
      ),
      { raw: { width: 20, height: 30, channels: 3, pageHeight: 10 } },
    )
      .gif({ delay: [100, 100, 100] })
      .toBuffer()
    const result = await engine.transform({ input: framed, operations: chain('t.trim()') })
    const out = await pixels(result.data)
    expect([out.width, out.height, out.pages]).toEqual([10, 4, 3])
    expectColour(out.at(5, 2, 2), BLUE, 24)
  })

  it('renders the first frame into a still format', async () => {
    const result = await engine.transform({ input: GIF, operations: chain('t.toFormat(f:png)') })
    const out = await pixels(result.data)
    expect([out.width, out.height, out.pages]).toEqual([20, 10, 1])
  })
})

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

describe('probe', () => {
  it('reads the format, size, frames and transparency', async () => {
    expect(await engine.probe(QUADRANTS)).toEqual({
      format: 'png',
      width: 64,
      height: 48,
      pages: 1,
      hasAlpha: false,
      size: QUADRANTS.length,
    })
    expect(await engine.probe(GIF)).toMatchObject({
      format: 'gif',
      width: 20,
      height: 10,
      pages: 3,
    })
    expect(await engine.probe(await halfTransparent())).toMatchObject({ hasAlpha: true })
  })

  it('reports the size as displayed, with the EXIF orientation applied', async () => {
    const rotated = await sharp(QUADRANTS).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    expect(await engine.probe(rotated)).toMatchObject({ format: 'jpeg', width: 48, height: 64 })
  })

  it('names AVIF files avif', async () => {
    const avif = await sharp(QUADRANTS).avif({ effort: 0 }).toBuffer()
    expect(await engine.probe(avif)).toMatchObject({ format: 'avif', width: 64, height: 48 })
  })
})
