// Decoded sources kept across jobs (decision 023): every answer is byte for byte what the engine
// makes without them, for every width of a photo-like JPEG and for other chains and sources;
// only plain sources are kept, on their third whole read, within the byte budget.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createDecodedCache } from './decoded-cache.ts'
import { createEngine, type Engine } from './index.ts'
import type { RawImage } from './pipeline.ts'
import { chain, HORSE } from './test-images.ts'

// Noise softened a little: as costly to code as a photograph, unlike flat test patterns.
async function photo(width: number, height: number, channels: 1 | 3 = 3): Promise<Buffer> {
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 60 }
  const raw = await sharp({ create: { width, height, channels: 3, background: '#808080', noise } })
    .blur(1.2)
    .raw()
    .toBuffer({ resolveWithObject: true })
  const image = sharp(raw.data, { raw: raw.info })
  return await (channels === 1 ? image.greyscale() : image).jpeg({ quality: 90 }).toBuffer()
}

const JPEG = await photo(1000, 872)
const without = createEngine({ decodedCacheMb: 0 })

async function render(engine: Engine, input: Buffer, pattern: string): Promise<Buffer> {
  return (await engine.transform({ input, operations: chain(pattern) })).data
}

describe('decoded sources', () => {
  it('answers every width from 200 to 999 of a JPEG byte for byte as without them', async () => {
    const engine = createEngine({ decodedCacheMb: 64 })
    const differing: number[] = []
    let whole = 0
    for (let width = 200; width < 1000; width++) {
      const pattern = `t.resize(w:${width})~t.toFormat(f:jpeg,q:80)`
      const [kept, plain] = [
        await render(engine, JPEG, pattern),
        await render(without, JPEG, pattern),
      ]
      if (!kept.equals(plain)) differing.push(width)
      // Below a third of the width, sharp decodes the JPEG at half size: read as before.
      if (1000 / width < 3) whole++
    }
    expect(differing).toEqual([])
    // The first two whole reads render as before, the third decodes the source to keep it.
    expect(engine.decodedStats()).toMatchObject({ entries: 1, decodes: 1, hits: whole - 3 })
    expect(whole).toBe(666)
  }, 120_000)

  it("answers heights and boxes around sharp's 3× shrink-on-load byte for byte", async () => {
    const engine = createEngine({ decodedCacheMb: 64 })
    const patterns: string[] = []
    // 872 / 3 = 290.7 px high; 1000 / 3 = 333.3 px wide.
    for (let height = 280; height <= 300; height++) patterns.push(`t.resize(h:${height})`)
    for (let width = 325; width <= 342; width++) {
      patterns.push(`t.resize(w:${width},h:200,f:contain)`, `t.resize(w:${width},h:280,f:cover)`)
      patterns.push(`t.resize(w:${width},h:250,f:inside)`, `t.resize(w:${width},h:300,f:outside)`)
    }
    const differing: string[] = []
    for (const pattern of patterns) {
      const [kept, plain] = [
        await render(engine, JPEG, pattern),
        await render(without, JPEG, pattern),
      ]
      if (!kept.equals(plain)) differing.push(pattern)
    }
    expect(differing).toEqual([])
    // Read whole from kept pixels: heights from 291 px and `outside` boxes from 334 px wide (the
    // rule takes the larger shrink of the two sides), but the first three.
    expect(engine.decodedStats().hits).toBe(10 + 9 - 3)
  }, 60_000)

  const sources: Record<string, () => Promise<Buffer>> = {
    'a JPEG': () => photo(640, 480),
    'a grey JPEG': () => photo(640, 480, 1),
    'a PNG with alpha': async () => HORSE,
    'an opaque PNG': async () =>
      sharp(await photo(320, 240))
        .png()
        .toBuffer(),
    'a palette PNG': () => sharp(HORSE).png({ palette: true }).toBuffer(),
    'a grey PNG with alpha': () => sharp(HORSE).greyscale().png().toBuffer(),
    'a WebP': async () =>
      sharp(await photo(320, 240))
        .webp()
        .toBuffer(),
  }
  const chains = [
    't.resize(w:250)',
    't.resize(w:300,h:300,f:contain,b:ff000080)',
    't.resize(w:900,h:200,f:fill)',
    't.flip()~t.resize(w:280)',
    't.extract(l:10,t:20,w:200,h:150)~t.resize(w:120)',
    't.rotate(a:33)',
    't.blur(s:2)~t.grey()',
    't.trim()~t.flop()',
    't.modulate(b:1.2)~t.sharpen(s:1)',
    't.extend(t:10,l:10,b:10,r:10,bc:00ff00)',
    't.resize(w:300)~t.toFormat(f:png)',
    't.resize(w:300)~t.toFormat(f:webp)',
    't.resize(w:200)~t.toFormat(f:avif)',
    't.resize(w:240)~t.toFormat(f:tiff)',
    't.resize(w:180)~t.toFormat(f:gif)',
    't.toFormat(f:jpeg)',
    't.density(d:300)~t.resize(w:260)',
    't.compress(q:40)',
  ]
  for (const [name, make] of Object.entries(sources)) {
    it(`answers other chains on ${name} byte for byte as without them`, async () => {
      const input = await make()
      const engine = createEngine({ decodedCacheMb: 64 })
      const differing: string[] = []
      // Twice round: the second time every whole read starts from the kept pixels.
      for (const round of [1, 2]) {
        for (const pattern of chains) {
          const [kept, plain] = [
            await render(engine, input, pattern),
            await render(without, input, pattern),
          ]
          if (!kept.equals(plain)) differing.push(`${round}: ${pattern}`)
        }
      }
      expect(differing).toEqual([])
      expect(engine.decodedStats()).toMatchObject({ entries: 1, decodes: 1 })
      expect(engine.decodedStats().hits).toBeGreaterThan(0)
    }, 60_000)
  }

  it('keeps no source that needs more than a decode: ICC profile, orientation, 16 bits, CMYK', async () => {
    const engine = createEngine({ decodedCacheMb: 64 })
    const small = await photo(200, 150)
    const inputs = [
      await sharp(small).withIccProfile('p3').jpeg().toBuffer(),
      await sharp(small).withMetadata({ orientation: 6 }).jpeg().toBuffer(),
      await sharp(small).toColourspace('rgb16').png().toBuffer(),
      await sharp(small).toColourspace('cmyk').jpeg().toBuffer(),
    ]
    for (const input of inputs) {
      for (const width of [150, 160, 170]) {
        const pattern = `t.resize(w:${width})`
        expect(
          (await render(engine, input, pattern)).equals(await render(without, input, pattern)),
        ).toBe(true)
      }
    }
    expect(engine.decodedStats()).toMatchObject({ entries: 0, decodes: 0, hits: 0 })
  })

  it('refuses a truncated JPEG on every ask as without them', async () => {
    const engine = createEngine({ decodedCacheMb: 64 })
    const input = JPEG.subarray(0, JPEG.length / 2)
    for (const width of [900, 800, 700, 600]) {
      const pattern = `t.resize(w:${width})`
      await expect(render(engine, input, pattern)).rejects.toMatchObject({ code: 'invalid_image' })
      await expect(render(without, input, pattern)).rejects.toMatchObject({ code: 'invalid_image' })
    }
    expect(engine.decodedStats()).toMatchObject({ entries: 0, hits: 0 })
  })
})

describe('the cache of decoded sources', () => {
  const image = (bytes: number): RawImage => ({
    data: Buffer.alloc(bytes),
    width: bytes,
    height: 1,
    channels: 1,
    pages: 1,
  })
  /** A decode of an image of `bytes` that counts its calls. */
  const countedDecode = (bytes: number) => {
    const counted = {
      calls: 0,
      decode: async () => {
        counted.calls++
        return image(bytes)
      },
    }
    return counted
  }

  it('keeps a source from its third ask; the least recently used go first', async () => {
    const cache = createDecodedCache(1000)
    const [a, b, c, d] = [Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(10)]
    const decode = async () => image(290)
    expect(await cache.get(a, 290, decode)).toBeUndefined()
    expect(await cache.get(a, 290, decode)).toBeUndefined()
    expect(await cache.get(a, 290, decode)).toBeDefined()
    for (const input of [b, b, b, c, c, c]) await cache.get(input, 290, decode)
    expect(cache.stats()).toEqual({ entries: 3, bytes: 900, hits: 0, decodes: 3, keepAt: 3 })
    await cache.get(a, 290, decode)
    for (const input of [d, d, d]) await cache.get(input, 290, decode)
    // b was the least recently used: a was asked again after it.
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 900, hits: 1, decodes: 4 })
    expect(await cache.get(a, 290, decode)).toBeDefined()
    expect(cache.stats().hits).toBe(2)
  })

  it('does not keep again a source pushed out before any use', async () => {
    const cache = createDecodedCache(1000)
    const [a, b, c, d] = [Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(10)]
    const decode = async () => image(290)
    for (const input of [a, a, a, b, b, b, c, c, c, d, d, d]) await cache.get(input, 290, decode)
    expect(cache.stats()).toMatchObject({ entries: 3, decodes: 4 })
    for (let ask = 0; ask < 3; ask++) expect(await cache.get(a, 290, decode)).toBeUndefined()
    expect(cache.stats()).toMatchObject({ entries: 3, decodes: 4 })
  })

  it('waits for more asks while kept sources go out unused, and less once they serve', async () => {
    const cache = createDecodedCache(1000)
    const decode = async () => image(290)
    const ask = async (input: Buffer, times: number) => {
      for (let time = 0; time < times; time++) await cache.get(input, 290, decode)
    }
    // Each source asked three times and never again: the fourth pushes the first out unused.
    for (let source = 0; source < 4; source++) await ask(Buffer.alloc(10), 3)
    expect(cache.stats()).toMatchObject({ decodes: 4, keepAt: 4 })
    const next = Buffer.alloc(10)
    await ask(next, 3)
    expect(cache.stats()).toMatchObject({ decodes: 4 })
    await ask(next, 1)
    expect(cache.stats()).toMatchObject({ decodes: 5, keepAt: 5 })
    await ask(next, 1)
    expect(cache.stats()).toMatchObject({ hits: 1, keepAt: 4 })
    for (let source = 0; source < 20; source++) await ask(Buffer.alloc(10), 12)
    expect(cache.stats().keepAt).toBe(3)
    for (let source = 0; source < 20; source++) await ask(Buffer.alloc(10), 10)
    expect(cache.stats().keepAt).toBe(3)
  })

  it('never keeps a source over half the budget, and nothing when off', async () => {
    const cache = createDecodedCache(1000)
    const input = Buffer.alloc(10)
    const counted = countedDecode(600)
    for (let ask = 0; ask < 3; ask++) {
      expect(await cache.get(input, 600, counted.decode)).toBeUndefined()
    }
    const off = createDecodedCache(0)
    for (let ask = 0; ask < 3; ask++) {
      expect(await off.get(input, 10, counted.decode)).toBeUndefined()
    }
    expect(counted.calls).toBe(0)
  })

  it('decodes a source once for asks that come together, and not again after a failure', async () => {
    const cache = createDecodedCache(1000)
    const input = Buffer.alloc(10)
    const counted = countedDecode(100)
    await cache.get(input, 100, counted.decode)
    await cache.get(input, 100, counted.decode)
    const images = await Promise.all([1, 2, 3].map(() => cache.get(input, 100, counted.decode)))
    expect(images.every((found) => found === images[0] && found !== undefined)).toBe(true)
    expect(counted.calls).toBe(1)
    const broken = Buffer.alloc(10)
    let failures = 0
    const failing = async (): Promise<RawImage> => {
      failures++
      throw new Error('corrupt')
    }
    for (let ask = 0; ask < 5; ask++) expect(await cache.get(broken, 100, failing)).toBeUndefined()
    expect(failures).toBe(1)
  })
})
