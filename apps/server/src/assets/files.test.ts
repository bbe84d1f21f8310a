import { describe, expect, it } from 'vitest'
import { HttpError } from '../http/errors.ts'
import {
  assertExtensionMatches,
  assertValidFilePath,
  isImageFormat,
  sniffType,
  TEXT_TYPE,
  UNKNOWN_TYPE,
} from './files.ts'

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7a6bd8f0000000049454e44ae426082',
  'hex',
)

describe('assertValidFilePath', () => {
  it.each(['a.png', 'samples/astronaut.png', 'Photos 2024/été/IMG_0001 (1).JPG', 'a/b/c/d.jpeg'])(
    'accepts %s',
    (path) => {
      expect(() => assertValidFilePath(path)).not.toThrow()
    },
  )

  it.each([
    '',
    '../etc/passwd',
    'a/../b.png',
    './a.png',
    'a/./b',
    'a\\b.png',
    '..\\..\\x',
    'a//b.png',
    '/abs.png',
    'a/%2e%2e/b.png',
    'a%2fb.png',
    'a%5cb',
    'a\u0000b',
    '.hidden',
    'a/<b>.png',
    'x'.repeat(1100),
  ])('refuses %j with 400 invalid_path', (path) => {
    let caught: unknown
    try {
      assertValidFilePath(path)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(HttpError)
    expect(caught).toMatchObject({ status: 400, code: 'invalid_path' })
  })
})

describe('sniffType', () => {
  it('reads the type from the bytes', async () => {
    expect(await sniffType(PNG)).toEqual({ format: 'png', contentType: 'image/png', isImage: true })
  })

  it('recognises a PDF', async () => {
    expect(
      await sniffType(
        Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n', 'latin1'),
      ),
    ).toMatchObject({ format: 'pdf', isImage: false })
  })

  it('accepts a plain SVG', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    )
    expect(await sniffType(svg)).toEqual({
      format: 'svg',
      contentType: 'image/svg+xml',
      isImage: true,
    })
  })

  it.each([
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe src="x"/></foreignObject></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)">x</a></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.test/x.png"/></svg>',
  ])('refuses an SVG with active content: %s', async (text) => {
    await expect(sniffType(Buffer.from(text))).rejects.toMatchObject({
      status: 400,
      code: 'unsafe_svg',
    })
  })

  it('refuses bytes of no known type', async () => {
    await expect(sniffType(Buffer.from('just some text, not an image'))).rejects.toMatchObject({
      status: 415,
      code: 'unsupported_type',
    })
  })
})

describe('assertExtensionMatches', () => {
  const png = { format: 'png', contentType: 'image/png', isImage: true }

  it.each(['photo.png', 'PHOTO.PNG', 'photo.apng', 'no-extension', 'notes.final', 'IMG 2024.05'])(
    'lets %s name PNG bytes',
    (name) => {
      expect(() => assertExtensionMatches(name, png)).not.toThrow()
    },
  )

  it.each([
    ['photo.jpg', png],
    ['report.pdf', png],
    // A .txt file must hold plain text (issue 23).
    ['notes.txt', png],
    ['photo.png', { format: 'exe', contentType: 'application/x-msdownload', isImage: false }],
    ['photo.png', UNKNOWN_TYPE],
  ])('refuses %s on bytes of another format', (name, type) => {
    expect(() => assertExtensionMatches(name, type)).toThrow(
      expect.objectContaining({ status: 415, code: 'extension_mismatch' }),
    )
  })

  it('treats jpg and jpeg, tif and tiff, heic and heif as one format', () => {
    const jpeg = { format: 'jpeg', contentType: 'image/jpeg', isImage: true }
    expect(() => assertExtensionMatches('a.jpeg', jpeg)).not.toThrow()
    expect(() => assertExtensionMatches('a.jpg', jpeg)).not.toThrow()
    expect(() =>
      assertExtensionMatches('a.tif', { format: 'tiff', contentType: 'image/tiff', isImage: true }),
    ).not.toThrow()
  })

  it('takes a .txt file for text only when its bytes are plain UTF-8 text', async () => {
    expect(await sniffType(Buffer.from('plain text\twith tabs\r\nand ünïcode\n'), 'a.txt')).toEqual(
      TEXT_TYPE,
    )
    await expect(sniffType(Buffer.from('plain text'))).rejects.toMatchObject({ status: 415 })
    await expect(sniffType(Buffer.from([0x41, 0x00, 0x42]), 'a.txt')).rejects.toMatchObject({
      status: 415,
    })
    await expect(sniffType(Buffer.from([0x41, 0xc3, 0x28]), 'a.txt')).rejects.toMatchObject({
      status: 415,
    })
  })

  it('counts only the image formats of SPEC §9 as images', async () => {
    const exe = await sniffType(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]))
    expect(exe.isImage).toBe(false)
    expect(isImageFormat('png')).toBe(true)
    expect(isImageFormat('pdf')).toBe(false)
    expect(isImageFormat('jxl')).toBe(false)
  })
})
