// HEIC, BMP, TIFF and animations through the real server: uploaded (bytes sniffed, pixels checked), and
// delivered in a format browsers show — `original` of a HEIC or TIFF converted, a BMP as is.
import { createTestHeic } from '@tessera/media'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { uploadDirect } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

const CORAL = [230, 90, 60] as const

function solid(width: number, height: number) {
  const data = Buffer.alloc(width * height * 3)
  for (let i = 0; i < width * height; i++) data.set(CORAL, i * 3)
  return { data, width, height }
}

// A 24-bit bottom-up BMP of RGB pixels.
function bmpOf({ data, width, height }: { data: Buffer; width: number; height: number }): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4
  const out = Buffer.alloc(54 + stride * height)
  out.write('BM', 0, 'latin1')
  out.writeUInt32LE(out.length, 2)
  out.writeUInt32LE(54, 10)
  out.writeUInt32LE(40, 14)
  out.writeInt32LE(width, 18)
  out.writeInt32LE(height, 22)
  out.writeUInt16LE(1, 26)
  out.writeUInt16LE(24, 28)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 3
      const to = 54 + (height - 1 - y) * stride + x * 3
      out[to] = data[from + 2] ?? 0
      out[to + 1] = data[from + 1] ?? 0
      out[to + 2] = data[from] ?? 0
    }
  }
  return out
}

async function centre(image: Buffer): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels
  return [...data.subarray(at, at + 3)]
}

function expectColour(actual: number[], tolerance = 10) {
  for (const [index, value] of CORAL.entries()) {
    expect(Math.abs((actual[index] ?? -99) - value)).toBeLessThanOrEqual(tolerance)
  }
}

describe.each<TestDatabaseKind>(testDatabases('server'))(
  'HEIC, BMP, TIFF and animations on %s',
  (kind) => {
    let token: string

    const upload = (data: Uint8Array, fileName: string) => {
      const body = new FormData()
      body.set('file', new Blob([new Uint8Array(data)]), fileName)
      return uploadDirect(suite.server.url, token, body)
    }
    const stored = async (response: Response) => {
      expect(response.status).toBe(200)
      const file = (await response.json()) as Record<string, unknown> & { url: string }
      return { ...file, url: `${suite.server.url}${new URL(file.url).pathname}` }
    }
    const get = async (url: string, pattern = 'original') => {
      const response = await fetch(url.replace('/original/', `/${pattern}/`))
      expect(response.status).toBe(200)
      return {
        type: response.headers.get('content-type'),
        data: Buffer.from(await response.arrayBuffer()),
      }
    }

    const suite = useTestServer(kind, { MAX_INPUT_PIXELS: '1000000' })

    beforeAll(async () => {
      token = await suite.server.createToken()
    }, 60_000)

    it('stores a HEIC and delivers its original and its transformations as JPEG', async () => {
      const heic = await createTestHeic(solid(80, 60))
      const file = await stored(await upload(heic, 'holiday.heic'))
      expect(file).toMatchObject({
        format: 'heif',
        fullPath: 'holiday.heic',
        width: 80,
        height: 60,
        pages: 1,
      })
      const original = await get(file.url)
      expect(original.type).toBe('image/jpeg')
      expect(await sharp(original.data).metadata()).toMatchObject({ width: 80, height: 60 })
      expectColour(await centre(original.data))
      const resized = await get(file.url, 't.resize(w:40)')
      expect(resized.type).toBe('image/jpeg')
      expect(await sharp(resized.data).metadata()).toMatchObject({ width: 40, height: 30 })
    })

    it('refuses a HEIC over the pixel limit, a corrupt one and a zip named .heic', async () => {
      const large = await upload(await createTestHeic(solid(1200, 1000)), 'large.heic')
      expect(large.status).toBe(422)
      expect(await large.json()).toMatchObject({ code: 'image_too_large' })
      const heic = await createTestHeic(solid(16, 16))
      const corrupt = await upload(
        Buffer.concat([heic.subarray(0, 40), Buffer.alloc(100, 1)]),
        'c.heic',
      )
      expect(corrupt.status).toBe(422)
      const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 0)])
      const disguised = await upload(zip, 'photo.heic')
      expect(disguised.status).toBe(415)
      expect(await disguised.json()).toMatchObject({ code: 'extension_mismatch' })
    })

    it('stores a BMP, delivers its original as is and its transformations as BMP', async () => {
      const bmp = bmpOf(solid(60, 40))
      const file = await stored(await upload(bmp, 'sketch.bmp'))
      expect(file).toMatchObject({ format: 'bmp', width: 60, height: 40 })
      const original = await get(file.url)
      expect(original.type).toBe('image/bmp')
      expect(original.data.equals(bmp)).toBe(true)
      const resized = await get(file.url, 't.resize(w:30)')
      expect(resized.type).toBe('image/bmp')
      expect(resized.data.readInt32LE(18)).toBe(30)
      const png = await get(file.url, 't.toFormat(f:png)')
      expectColour(await centre(png.data), 2)
    })

    it('stores a TIFF and delivers its original and its transformations as JPEG', async () => {
      const { data, width, height } = solid(50, 30)
      const tiff = await sharp(data, { raw: { width, height, channels: 3 } })
        .tiff()
        .toBuffer()
      const file = await stored(await upload(tiff, 'scan.tif'))
      expect(file).toMatchObject({ format: 'tiff', width: 50, height: 30 })
      const original = await get(file.url)
      expect(original.type).toBe('image/jpeg')
      expectColour(await centre(original.data))
      const resized = await get(file.url, 't.resize(w:25)')
      expect(await sharp(resized.data).metadata()).toMatchObject({ format: 'jpeg', width: 25 })
    })

    it('keeps every frame of an animated WebP and GIF through t.* operations', async () => {
      const frames = Buffer.concat(
        [
          [255, 0, 0],
          [0, 255, 0],
          [0, 0, 255],
        ].map((colour) => {
          const frame = Buffer.alloc(20 * 10 * 3)
          for (let i = 0; i < 200; i++) frame.set(colour, i * 3)
          return frame
        }),
      )
      const raw = { width: 20, height: 30, channels: 3 as const, pageHeight: 10 }
      for (const format of ['webp', 'gif'] as const) {
        const animation = await sharp(frames, { raw })
          [format]({ delay: [100, 100, 100], loop: 0 })
          .toBuffer()
        const file = await stored(await upload(animation, `spin.${format}`))
        expect(file).toMatchObject({ format, width: 20, height: 10, pages: 3 })
        const turned = await get(file.url, 't.rotate(a:90)~t.blur(s:1)')
        expect(turned.type).toBe(`image/${format}`)
        const metadata = await sharp(turned.data, { animated: true }).metadata()
        expect([metadata.pages, metadata.width, metadata.pageHeight]).toEqual([3, 10, 20])
      }
    })
  },
)
