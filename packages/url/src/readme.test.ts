// The examples of README.md, run as written, so the documentation stays true.
import { describe, expect, it } from 'vitest'
import {
  bytesToMb,
  expandPresets,
  formatBytes,
  isAssetSlug,
  objToUrl,
  parseColor,
  parsePattern,
  rgbToHex,
  signUrl,
  urlToObj,
  verifySignedUrl,
} from './index.ts'

describe('the README examples', () => {
  it('reads and builds URLs', () => {
    const url = 'https://cdn.example.com/v2/demo/ek69d0/t.resize(w:300)~t.flip()/a/b.jpg?dpr=2'
    const obj = urlToObj(url)
    expect(obj).toEqual({
      baseUrl: 'https://cdn.example.com',
      version: 'v2',
      cloudName: 'demo',
      zone: 'ek69d0',
      pattern: 't.resize(w:300)~t.flip()',
      filePath: 'a/b.jpg',
      worker: false,
      workerPath: '',
      isCustomDomain: false,
      options: { dpr: 2 },
      transformations: [
        { plugin: 't', name: 'resize', values: [{ key: 'w', value: '300' }] },
        { plugin: 't', name: 'flip' },
      ],
    })
    expect(objToUrl(obj)).toBe(url)
    expect(
      urlToObj('https://img.shop.test/v2/original/a.jpg', { isCustomDomain: true }).cloudName,
    ).toBeUndefined()
  })

  it('builds the root README URL', () => {
    const url = objToUrl({
      baseUrl: 'http://localhost:4201',
      cloudName: 'demo',
      filePath: 'samples/astronaut.png',
      transformations: [{ plugin: 't', name: 'resize', values: [{ key: 'w', value: '300' }] }],
      options: { f_auto: true },
    })
    expect(url).toBe(
      'http://localhost:4201/v2/demo/t.resize(w:300)/samples/astronaut.png?f_auto=true',
    )
  })

  it('checks a pattern against the catalogue', () => {
    const { value, issues } = parsePattern('t.resize(w:300)~t.blur(s:abc)~zz.top()')
    expect(value[0]?.params).toEqual({
      w: 300,
      h: 0,
      f: 'cover',
      b: '000000',
      p: 'center',
      k: 'lanczos3',
      dpr: 1,
    })
    expect(issues).toEqual([
      {
        code: 'invalid_type',
        index: 1,
        operation: 't.blur(s:abc)',
        param: 's',
        message: "Expected a number for t.blur.s, received 'abc'",
      },
      {
        code: 'unknown_plugin',
        index: 2,
        operation: 'zz.top()',
        message: "Could not find the plugin 'zz'",
      },
    ])
  })

  it('expands presets', () => {
    expect(
      expandPresets('p:thumb(w:120)~t.grey()', {
        thumb: {
          transformation: 't.resize(w:$w,h:$w)',
          params: { w: { type: 'integer', default: 200 } },
        },
      }),
    ).toBe('t.resize(w:120,h:120)~t.grey()')
  })

  it('signs and verifies', async () => {
    const signed = await signUrl('https://cdn.example.com/v2/demo/original/a.jpg', {
      accessKey: 'key-id',
      token: 'secret',
      expirySeconds: 3600,
    })
    expect(signed).toMatch(/\/a\.jpg\?pbs=[0-9a-f]{64}&pbe=\d+&pbt=key-id$/)
    const check = await verifySignedUrl(signed, {
      getToken: (key) => (key === 'key-id' ? 'secret' : undefined),
    })
    expect(check).toMatchObject({ valid: true, accessKey: 'key-id' })
  })

  it('has the helpers it lists', () => {
    expect(rgbToHex(255, 0, 0, 0.5)).toBe('ff000080')
    expect(parseColor('rgba(0, 128, 255, 50%)')).toBe('0080ff80')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(bytesToMb(2097152)).toBe(2)
    expect(isAssetSlug('ek69d0')).toBe(true)
  })
})
