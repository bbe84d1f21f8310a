import { describe, expect, it } from 'vitest'
import {
  acceptsType,
  autoAvifFits,
  CONTENT_TYPES,
  chooseOutputFormat,
  normaliseFormat,
  OUTPUT_FORMATS,
} from './index.ts'
import { chain } from './test-images.ts'

describe('chooseOutputFormat', () => {
  const none = chain('t.flip()')

  it.each([
    // source, accept, f_auto, alpha, animated, expected
    ['jpg', undefined, false, false, false, 'jpeg'],
    ['jpeg', 'image/avif,image/webp', false, false, false, 'jpeg'],
    ['png', 'image/avif,image/webp,*/*', true, true, false, 'avif'],
    ['png', 'image/webp,*/*', true, true, false, 'webp'],
    ['png', 'text/html,*/*', true, true, false, 'png'],
    ['png', 'image/avif;q=0,image/webp', true, true, false, 'webp'],
    // Browsers do not show TIFF, HEIC or a PDF: an opaque image becomes JPEG, a page PNG.
    ['tif', undefined, false, false, false, 'jpeg'],
    ['tiff', undefined, false, true, false, 'png'],
    ['pdf', undefined, false, false, false, 'png'],
    ['webp', undefined, false, true, false, 'webp'],
    ['avif', undefined, false, false, false, 'avif'],
    ['gif', undefined, false, true, false, 'gif'],
    ['svg', undefined, false, undefined, false, 'png'],
    ['svg', 'image/webp', true, true, false, 'webp'],
    ['heic', undefined, false, false, false, 'jpeg'],
    ['heic', undefined, false, true, false, 'png'],
    ['ico', undefined, false, undefined, false, 'png'],
    ['bmp', undefined, false, false, false, 'bmp'],
    ['gif', 'image/avif,image/webp', true, true, true, 'webp'],
    ['gif', 'image/avif', true, true, true, 'gif'],
    ['gif', 'image/avif,image/webp', false, true, true, 'gif'],
    ['webp', 'image/png', true, true, true, 'gif'],
  ] as const)(
    'writes a %s source with Accept %j and f_auto %s as the right format',
    (sourceFormat, accept, autoFormat, hasAlpha, animated, expected) => {
      const request = {
        sourceFormat,
        operations: none,
        autoFormat,
        animated,
        ...(accept === undefined ? {} : { accept }),
        ...(hasAlpha === undefined ? {} : { hasAlpha }),
      }
      expect(chooseOutputFormat(request)).toBe(expected)
    },
  )

  it('lets the last t.toFormat of the chain win', () => {
    const operations = chain('t.toFormat(f:png)~t.flip()~t.toFormat(f:webp)')
    expect(chooseOutputFormat({ sourceFormat: 'jpg', operations })).toBe('webp')
    expect(
      chooseOutputFormat({
        sourceFormat: 'gif',
        operations,
        animated: true,
        autoFormat: true,
        accept: 'image/avif',
      }),
    ).toBe('webp')
    expect(
      chooseOutputFormat({
        sourceFormat: 'jpg',
        operations: chain('t.toFormat(f:bmp)'),
        autoFormat: true,
        accept: 'image/avif',
      }),
    ).toBe('bmp')
  })

  it.each([
    // chain, source, accept (f_auto when given), expected
    ['erase.bg()', 'jpg', undefined, 'png'],
    ['t.resize(w:300)~remove.bg()~t.extend(t:10)', 'jpeg', undefined, 'png'],
    ['erase.bg()', 'gif', undefined, 'png'],
    ['erase.bg()', 'bmp', undefined, 'png'],
    ['erase.bg()', 'heic', undefined, 'png'],
    ['erase.bg()', 'webp', undefined, 'webp'],
    ['erase.bg()', 'tiff', undefined, 'png'],
    ['erase.bg()', 'jpg', 'image/avif,image/webp', 'avif'],
    ['erase.bg()', 'jpg', 'image/webp', 'webp'],
    ['erase.bg()', 'jpg', 'text/html,*/*', 'png'],
    ['shadow.gen(bgc:00000000)', 'jpg', undefined, 'png'],
    ['shadow.gen(bgc:ffffff80)', 'jpg', undefined, 'png'],
    ['shadow.gen()', 'jpg', undefined, 'jpeg'],
    ['shadow.gen(bgc:ffffffff)', 'jpg', undefined, 'jpeg'],
    ['erase.bg()~t.toFormat(f:jpeg)', 'png', undefined, 'jpeg'],
  ] as const)(
    'answers %s of a %s source (Accept %j) in a format that keeps its transparency: %s',
    (pattern, sourceFormat, accept, expected) => {
      const request = {
        sourceFormat,
        operations: chain(pattern),
        hasAlpha: false,
        ...(accept === undefined ? {} : { accept, autoFormat: true }),
      }
      expect(chooseOutputFormat(request)).toBe(expected)
    },
  )

  it('has a content type for every output format', () => {
    for (const format of OUTPUT_FORMATS) expect(CONTENT_TYPES[format]).toMatch(/^image\//)
  })
})

describe('acceptsType', () => {
  it('finds a listed type and ignores wildcards and zero qualities', () => {
    expect(acceptsType('image/avif,image/webp;q=0.9', 'image/webp')).toBe(true)
    expect(acceptsType('image/*,*/*', 'image/webp')).toBe(false)
    expect(acceptsType('image/webp;q=0', 'image/webp')).toBe(false)
    expect(acceptsType(' IMAGE/WEBP ', 'image/webp')).toBe(true)
    expect(acceptsType(undefined, 'image/webp')).toBe(false)
  })
})

describe('normaliseFormat', () => {
  it.each([
    ['jpg', 'jpeg'],
    ['.JPG', 'jpeg'],
    ['tif', 'tiff'],
    ['PNG', 'png'],
  ])('reads %s as %s', (name, format) => {
    expect(normaliseFormat(name)).toBe(format)
  })
})

describe('autoAvifFits', () => {
  it.each([
    [{ width: 1200, height: 900 }, 1200, true],
    [{ width: 900, height: 1201 }, 1200, false],
    [{ width: 5000, height: 5000 }, undefined, true],
    [undefined, 1200, true],
    [{ width: 10, height: 10 }, 0, false],
  ])('%o under %s → %s', (size, limit, fits) => {
    expect(autoAvifFits(size, limit)).toBe(fits)
  })

  it('turns f_auto to WebP for a large output, a cut-out included', () => {
    const request = {
      sourceFormat: 'jpg',
      autoFormat: true,
      accept: 'image/avif,image/webp',
      outputSize: { width: 2400, height: 1600 },
      autoAvifMaxSide: 1200,
    }
    expect(chooseOutputFormat({ ...request, operations: chain('t.flip()') })).toBe('webp')
    expect(chooseOutputFormat({ ...request, operations: chain('erase.bg()') })).toBe('webp')
    expect(
      chooseOutputFormat({ ...request, accept: 'image/avif', operations: chain('t.flip()') }),
    ).toBe('jpeg')
    expect(chooseOutputFormat({ ...request, operations: chain('t.toFormat(f:avif)') })).toBe('avif')
  })
})
