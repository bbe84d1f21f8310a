// urlToObj and parseDeliveryPath: every URL shape, the query options, and the errors, as the
// Pixelbin SDKs read them. Building URLs and the round trip: delivery-url-build.test.ts.
import { describe, expect, it } from 'vitest'
import { parseDeliveryPath, urlToObj } from './delivery-url.ts'
import { IllegalQueryParameterError, InvalidUrlError, MESSAGES, type UrlError } from './errors.ts'

const CDN = 'https://cdn.example.com'

describe('urlToObj: URL shapes', () => {
  const cases: Array<{ url: string; custom?: boolean; expected: Record<string, unknown> }> = [
    {
      url: `${CDN}/v2/red-scene-95b6ea/t.resize()/__playground/playground-default.jpeg`,
      expected: {
        baseUrl: CDN,
        version: 'v2',
        cloudName: 'red-scene-95b6ea',
        zone: undefined,
        pattern: 't.resize()',
        filePath: '__playground/playground-default.jpeg',
        worker: false,
        workerPath: '',
        isCustomDomain: false,
        options: {},
        transformations: [{ plugin: 't', name: 'resize' }],
      },
    },
    {
      url: `${CDN}/v2/dac/ek69d0/original/__playground/playground-default.jpeg`,
      expected: { cloudName: 'dac', zone: 'ek69d0', pattern: 'original', transformations: [] },
    },
    {
      url: `${CDN}/v2/falling-surf-7c8bb8/fyndnp/wrkr/robots.txt`,
      expected: {
        cloudName: 'falling-surf-7c8bb8',
        zone: 'fyndnp',
        pattern: '',
        filePath: '',
        worker: true,
        workerPath: 'robots.txt',
        transformations: [],
      },
    },
    {
      url: `${CDN}/v2/demo/wrkr/resize:w200,h200/image.jpeg`,
      expected: { zone: undefined, worker: true, workerPath: 'resize:w200,h200/image.jpeg' },
    },
    {
      url: `${CDN}/v2/demo/wrkr/`,
      expected: { worker: true, workerPath: '' },
    },
    {
      url: 'https://cdn.twist.vision/v2/zonesl/t.resize()/test/__playground/playground-default.jpeg',
      custom: true,
      expected: {
        baseUrl: 'https://cdn.twist.vision',
        cloudName: undefined,
        zone: 'zonesl',
        pattern: 't.resize()',
        filePath: 'test/__playground/playground-default.jpeg',
        isCustomDomain: true,
      },
    },
    {
      url: 'https://img.shop.test/v1/original/a.jpg',
      custom: true,
      expected: { version: 'v1', cloudName: undefined, zone: undefined, filePath: 'a.jpg' },
    },
    {
      url: 'https://img.shop.test/v2/wrkr/old/path.png',
      custom: true,
      expected: { worker: true, workerPath: 'old/path.png', zone: undefined },
    },
    {
      url: 'https://img.shop.test/v2/z-slug/wrkr/old/path.png',
      custom: true,
      expected: { worker: true, workerPath: 'old/path.png', zone: 'z-slug' },
    },
    {
      url: `${CDN}/demo/original/a.jpg`,
      expected: { version: 'v1', cloudName: 'demo', filePath: 'a.jpg' },
    },
    {
      url: `${CDN}/v10/original/x.jpg`,
      expected: { version: 'v1', cloudName: 'v10', pattern: 'original', filePath: 'x.jpg' },
    },
    {
      url: `${CDN}/v2/cloud/original/`,
      expected: { filePath: '' },
    },
    {
      url: `${CDN}/v2/cloud/original/x.jpg/`,
      expected: { filePath: 'x.jpg/' },
    },
    {
      url: `${CDN}/v2/cloud/original/z0/orgs/33/wrkr/icons/x.png`,
      expected: { worker: false, filePath: 'z0/orgs/33/wrkr/icons/x.png' },
    },
    {
      url: `${CDN}/v2/cloud/original/a%20b.jpg`,
      expected: { filePath: 'a%20b.jpg' },
    },
    {
      url: 'http://localhost:4201/v2/demo/original/samples/astronaut.png#top',
      expected: { baseUrl: 'http://localhost:4201', filePath: 'samples/astronaut.png' },
    },
    {
      url: 'HTTPS://CDN.Example.COM:443/v2/demo/original/a.jpg',
      expected: { baseUrl: 'https://cdn.example.com' },
    },
    {
      url: `${CDN}/v2/demo/t.rotate(a:-249)~p:thumb~p.apply(n:card,w:3)/a.jpg`,
      expected: {
        transformations: [
          { plugin: 't', name: 'rotate', values: [{ key: 'a', value: '-249' }] },
          { plugin: 'p', name: 'thumb' },
          {
            plugin: 'p',
            name: 'apply',
            values: [
              { key: 'n', value: 'card' },
              { key: 'w', value: '3' },
            ],
          },
        ],
      },
    },
  ]

  it.each(cases)('reads $url', ({ url, custom, expected }) => {
    const obj = urlToObj(url, { isCustomDomain: custom === true })
    expect(obj).toMatchObject(expected)
    for (const [key, value] of Object.entries(expected)) {
      if (value === undefined) expect(obj[key as keyof typeof obj]).toBeUndefined()
    }
  })

  it('keeps list and colour values as the text of the URL', () => {
    const obj = urlToObj(
      `${CDN}/v2/demo/t.merge(bboxes:[[10_10_100_100]_[5_5_5_5]],bg:00000000)/a.png`,
    )
    expect(obj.transformations[0]?.values).toEqual([
      { key: 'bboxes', value: '[[10_10_100_100]_[5_5_5_5]]' },
      { key: 'bg', value: '00000000' },
    ])
  })

  it('keeps a nested transformation value whole', () => {
    const obj = urlToObj(
      `${CDN}/v2/demo/t.merge(i:abc,tr:t.resize(w:10,h:5)~t.flip())~t.grey()/a.png`,
    )
    expect(obj.transformations).toEqual([
      {
        plugin: 't',
        name: 'merge',
        values: [
          { key: 'i', value: 'abc' },
          { key: 'tr', value: 't.resize(w:10,h:5)~t.flip()' },
        ],
      },
      { plugin: 't', name: 'grey' },
    ])
  })

  it('takes the last value of a repeated key at its first position', () => {
    const obj = urlToObj(`${CDN}/v2/demo/t.resize(h:1,w:3,h:2)/a.png`)
    expect(obj.transformations[0]?.values).toEqual([
      { key: 'h', value: '2' },
      { key: 'w', value: '3' },
    ])
  })
})

describe('urlToObj: query options', () => {
  it.each([
    ['?dpr=2.5&f_auto=true', { dpr: 2.5, f_auto: true }],
    ['?dpr=auto', { dpr: 'auto' }],
    ['?dpr=1', { dpr: 1 }],
    ['?dpr=0.1', { dpr: 0.1 }],
    ['?dpr=5.0', { dpr: 5 }],
    ['?dpr=1&dpr=3', { dpr: 3 }],
    ['?f_auto=TRUE', { f_auto: true }],
    ['?f_auto=false', { f_auto: false }],
    ['?f_auto', { f_auto: true }],
    ['?f_auto=', { f_auto: true }],
    ['?preview=true&download=1', {}],
    ['?', {}],
  ])('reads %s', (query, options) => {
    expect(urlToObj(`${CDN}/v2/demo/original/a.jpg${query}`).options).toEqual(options)
  })

  it.each(['?dpr=abc', '?dpr=', '?dpr', '?dpr=0', '?dpr=5.1', '?dpr=-1', '?dpr=0x2', '?dpr=1e0'])(
    'refuses %s with the DPR message',
    (query) => {
      expect(() => urlToObj(`${CDN}/v2/demo/original/a.jpg${query}`)).toThrowError(
        new IllegalQueryParameterError(MESSAGES.dpr),
      )
    },
  )

  it.each(['?f_auto=yes', '?f_auto=abc', '?f_auto=2'])(
    'refuses %s with the f_auto message',
    (query) => {
      const read = () => urlToObj(`${CDN}/v2/demo/original/a.jpg${query}`)
      expect(read).toThrowError(IllegalQueryParameterError)
      expect(read).toThrowError(MESSAGES.fAuto)
    },
  )
})

describe('urlToObj: errors', () => {
  const invalid = [
    `${CDN}/v3/red-scene-95b6ea/original/a.jpg`,
    `${CDN}/v2`,
    `${CDN}//v2/demo/original/a.jpg`,
    `${CDN}/v2/ab/original/a.jpg`,
    `${CDN}/v2/demo/original`,
    `${CDN}/v2/my.cloud/original/a.jpg`,
    `${CDN}/`,
    `${CDN}`,
    `${CDN}/v2/demo//a.jpg`,
    'not a url',
    '/v2/demo/original/a.jpg',
    'ftp://cdn.example.com/v2/demo/original/a.jpg',
    'https://',
  ]
  it.each(invalid)("refuses %s as 'Invalid Tessera url'", (url) => {
    expect(() => urlToObj(url)).toThrowError(new InvalidUrlError(MESSAGES.invalidUrl))
  })

  it.each([
    'https://img.shop.test/original/a.jpg',
    'https://img.shop.test/v3/original/a.jpg',
    'https://img.shop.test/v2/original',
  ])('refuses the custom-domain URL %s without a usable version or shape', (url) => {
    expect(() => urlToObj(url, { isCustomDomain: true })).toThrowError(MESSAGES.invalidUrl)
  })

  const unreadable = [
    `${CDN}/v2/cloud/abcdef/x.jpg`,
    `${CDN}/v2/cloud/t.compress/x.jpg`,
    `${CDN}/v2/cloud/t.resize(h:10)x/x.jpg`,
    `${CDN}/v2/cloud/t.resize(h:10~t.flip()/x.jpg`,
    `${CDN}/v2/cloud/t.resize(h:10)~~t.flip()/x.jpg`,
    `${CDN}/v2/cloud/t.resize(h)/x.jpg`,
    `${CDN}/v2/cloud/t.resize(h:)/x.jpg`,
    `${CDN}/v2/cloud/t.a.b()/x.jpg`,
    `${CDN}/v2/cloud/.resize()/x.jpg`,
    `${CDN}/v2/cloud/t.()/x.jpg`,
    `${CDN}/v2/cloud/p:()/x.jpg`,
    `${CDN}/v2/cloud/test/x.jpg`,
    `${CDN}/v2/cloud/zonesls/x.jpg`,
  ]
  it.each(unreadable)("refuses %s as 'Error Processing url'", (url) => {
    let caught: unknown
    try {
      urlToObj(url)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(InvalidUrlError)
    expect((caught as UrlError).code).toBe('invalid_url')
    expect((caught as UrlError).message).toBe(MESSAGES.errorProcessingUrl)
    expect((caught as UrlError).cause).toEqual(expect.any(String))
  })

  it('reports a bad dpr before a bad pattern, as the SDKs do', () => {
    expect(() => urlToObj(`${CDN}/v2/cloud/t.compress/x.jpg?dpr=9`)).toThrowError(MESSAGES.dpr)
  })

  it('throws its own error for a value that is not a string', () => {
    expect(() => urlToObj(42 as unknown as string)).toThrowError(InvalidUrlError)
    expect(() => urlToObj(null as unknown as string)).toThrowError(InvalidUrlError)
  })
})

describe('parseDeliveryPath', () => {
  it('reads a path without scheme and host', () => {
    expect(parseDeliveryPath('/v2/demo/t.flip()/a/b.png')).toEqual({
      version: 'v2',
      cloudName: 'demo',
      zone: undefined,
      pattern: 't.flip()',
      filePath: 'a/b.png',
      worker: false,
      workerPath: '',
      isCustomDomain: false,
    })
  })

  it('refuses a path that does not start with a slash', () => {
    expect(() => parseDeliveryPath('v2/demo/original/a.png')).toThrowError(InvalidUrlError)
  })
})
