// objToUrl: every object written as the Pixelbin SDKs write it, the errors, and the round trip
// through urlToObj. Reading URLs: delivery-url-parse.test.ts.
import { describe, expect, it } from 'vitest'
import { objToUrl, type UrlObjectInput, urlToObj } from './delivery-url.ts'
import {
  IllegalArgumentError,
  IllegalQueryParameterError,
  MESSAGES,
  type UrlError,
} from './errors.ts'

const CDN = 'https://cdn.example.com'

describe('objToUrl', () => {
  const base = { baseUrl: CDN, cloudName: 'demo', filePath: 'a.jpg' }
  const cases: Array<[string, UrlObjectInput, string]> = [
    ['writes original without transformations', base, `${CDN}/v2/demo/original/a.jpg`],
    [
      'writes original for an empty list or entries without a name',
      { ...base, transformations: [{}] },
      `${CDN}/v2/demo/original/a.jpg`,
    ],
    [
      'writes every operation with parentheses',
      {
        ...base,
        transformations: [
          { plugin: 'erase', name: 'bg' },
          { plugin: 't', name: 'resize', values: [{ key: 'w', value: '300' }] },
        ],
      },
      `${CDN}/v2/demo/erase.bg()~t.resize(w:300)/a.jpg`,
    ],
    [
      'skips entries without a name before, between and after operations',
      {
        ...base,
        transformations: [
          { plugin: 't' },
          { plugin: 't', name: 'flip' },
          {},
          { plugin: 't', name: 'resize', values: [{ key: 'w', value: 300 }] },
          { plugin: 't' },
        ],
      },
      `${CDN}/v2/demo/t.flip()~t.resize(w:300)/a.jpg`,
    ],
    [
      'writes numbers, booleans, zero and lists as text',
      {
        ...base,
        transformations: [
          {
            plugin: 't',
            name: 'merge',
            values: [
              { key: 'w', value: 0 },
              { key: 'r', value: true },
              { key: 'bboxes', value: [[1, 2, 3, 4]] },
            ],
          },
        ],
      },
      `${CDN}/v2/demo/t.merge(w:0,r:true,bboxes:[[1_2_3_4]])/a.jpg`,
    ],
    [
      'writes presets as p:name and p:name(args)',
      {
        ...base,
        transformations: [
          { plugin: 'p', name: 'thumb' },
          { plugin: 'p', name: 'card', values: [{ key: 'w', value: '3' }] },
        ],
      },
      `${CDN}/v2/demo/p:thumb~p:card(w:3)/a.jpg`,
    ],
    [
      'writes p.apply back as p.apply',
      {
        ...base,
        transformations: [{ plugin: 'p', name: 'apply', values: [{ key: 'n', value: 'card' }] }],
      },
      `${CDN}/v2/demo/p.apply(n:card)/a.jpg`,
    ],
    ['keeps v1', { ...base, version: 'v1' }, `${CDN}/v1/demo/original/a.jpg`],
    [
      'writes v2 for an unknown version',
      { ...base, version: 'v9' },
      `${CDN}/v2/demo/original/a.jpg`,
    ],
    ['writes a zone', { ...base, zone: 'ek69d0' }, `${CDN}/v2/demo/ek69d0/original/a.jpg`],
    [
      'treats zone "default" as none',
      { ...base, zone: 'default' },
      `${CDN}/v2/demo/original/a.jpg`,
    ],
    [
      'writes a custom-domain URL without cloud name',
      { baseUrl: 'https://img.shop.test', isCustomDomain: true, filePath: 'a.jpg' },
      'https://img.shop.test/v2/original/a.jpg',
    ],
    [
      'writes worker URLs with wrkr and ignores transformations',
      {
        ...base,
        worker: true,
        workerPath: 'old/a.jpg',
        transformations: [{ plugin: 't', name: 'flip' }],
      },
      `${CDN}/v2/demo/wrkr/old/a.jpg`,
    ],
    [
      'ends an empty worker path with a slash so it reads back as a worker URL',
      { ...base, worker: true, workerPath: '' },
      `${CDN}/v2/demo/wrkr/`,
    ],
    [
      'writes dpr before f_auto',
      { ...base, options: { f_auto: true, dpr: '1.50' } },
      `${CDN}/v2/demo/original/a.jpg?dpr=1.5&f_auto=true`,
    ],
    [
      'writes dpr auto',
      { ...base, options: { dpr: 'auto' } },
      `${CDN}/v2/demo/original/a.jpg?dpr=auto`,
    ],
    [
      'leaves out a zero dpr and a false f_auto',
      { ...base, options: { dpr: 0, f_auto: false } },
      `${CDN}/v2/demo/original/a.jpg`,
    ],
    [
      'trims trailing slashes of the base URL',
      { ...base, baseUrl: `${CDN}//` },
      `${CDN}/v2/demo/original/a.jpg`,
    ],
    [
      'uses the local server when no base URL is given',
      { cloudName: 'demo', filePath: 'a.jpg' },
      'http://localhost:4201/v2/demo/original/a.jpg',
    ],
    ['ignores a given pattern', { ...base, pattern: 't.flip()' }, `${CDN}/v2/demo/original/a.jpg`],
  ]
  it.each(cases)('%s', (_name, obj, url) => {
    expect(objToUrl(obj)).toBe(url)
  })

  it('does not modify its input', () => {
    const obj = { ...base, transformations: [{ plugin: 't', name: 'flip' }], options: { dpr: 2 } }
    const copy = structuredClone(obj)
    objToUrl(obj)
    expect(obj).toEqual(copy)
  })

  const errors: Array<[string, unknown, UrlError]> = [
    ['no cloudName', { filePath: 'a.jpg' }, new IllegalArgumentError(MESSAGES.cloudNameRequired)],
    [
      'a cloudName on a custom domain',
      { isCustomDomain: true, cloudName: 'demo', filePath: 'a.jpg' },
      new IllegalArgumentError(MESSAGES.cloudNameOnCustomDomain),
    ],
    ['no filePath', { cloudName: 'demo' }, new IllegalArgumentError(MESSAGES.filePathRequired)],
    [
      'an empty filePath',
      { cloudName: 'demo', filePath: '' },
      new IllegalArgumentError(MESSAGES.filePathRequired),
    ],
    [
      'a worker without workerPath',
      { cloudName: 'demo', worker: true },
      new IllegalArgumentError(MESSAGES.workerPathRequired),
    ],
    [
      'a pair without key',
      { ...base, transformations: [{ plugin: 't', name: 'resize', values: [{ value: '1' }] }] },
      new IllegalArgumentError(MESSAGES.keyMissing('resize')),
    ],
    [
      'a pair without value',
      { ...base, transformations: [{ plugin: 't', name: 'resize', values: [{ key: 'w' }] }] },
      new IllegalArgumentError(MESSAGES.valueMissing('w', 'resize')),
    ],
    [
      'a pair with an empty value',
      {
        ...base,
        transformations: [{ plugin: 't', name: 'resize', values: [{ key: 'w', value: '' }] }],
      },
      new IllegalArgumentError(MESSAGES.valueMissing('w', 'resize')),
    ],
    [
      'a value that would split the pattern',
      {
        ...base,
        transformations: [{ plugin: 't', name: 'resize', values: [{ key: 'w', value: '1,h:2' }] }],
      },
      new IllegalArgumentError(MESSAGES.valueUnsafe('w', 'resize')),
    ],
    [
      'a value with a slash',
      {
        ...base,
        transformations: [{ plugin: 't', name: 'merge', values: [{ key: 'i', value: 'a/b' }] }],
      },
      new IllegalArgumentError(MESSAGES.valueUnsafe('i', 'merge')),
    ],
    [
      'values that are not an array',
      { ...base, transformations: [{ plugin: 't', name: 'resize', values: 'w:1' }] },
      new IllegalArgumentError(MESSAGES.arrayExpected('values', 'string')),
    ],
    [
      'a transformation without plugin',
      { ...base, transformations: [{ name: 'resize' }] },
      new IllegalArgumentError(MESSAGES.pluginMissing('resize')),
    ],
    [
      'a plugin name with a dot',
      { ...base, transformations: [{ plugin: 't.x', name: 'resize' }] },
      new IllegalArgumentError(MESSAGES.nameInvalid('resize')),
    ],
    [
      'a zone that is not a slug',
      { ...base, zone: 'abc' },
      new IllegalArgumentError(MESSAGES.zoneInvalid),
    ],
    [
      'a dpr out of range',
      { ...base, options: { dpr: 7 } },
      new IllegalQueryParameterError(MESSAGES.dpr),
    ],
    [
      'an f_auto that is not boolean',
      { ...base, options: { f_auto: 'abc' } },
      new IllegalQueryParameterError(MESSAGES.fAuto),
    ],
    [
      'a value that is not an object',
      'https://x',
      new IllegalArgumentError(MESSAGES.objectExpected('the URL object, got string')),
    ],
  ]
  it.each(errors)('refuses %s', (_name, obj, error) => {
    let caught: unknown
    try {
      objToUrl(obj as UrlObjectInput)
    } catch (thrown) {
      caught = thrown
    }
    expect(caught).toBeInstanceOf(error.constructor)
    expect(caught).toMatchObject({ code: error.code, message: error.message })
  })
})

describe('round trip', () => {
  const canonical = [
    `${CDN}/v2/demo/original/a.jpg`,
    `${CDN}/v1/demo/original/a.jpg`,
    `${CDN}/v2/red-scene-95b6ea/t.resize(h:200,w:300)~t.flip()/__playground/playground-default.jpeg`,
    `${CDN}/v2/dac/ek69d0/original/__playground/playground-default.jpeg`,
    `${CDN}/v2/falling-surf-7c8bb8/fyndnp/wrkr/robots.txt`,
    `${CDN}/v2/demo/wrkr/`,
    `${CDN}/v2/feel/erase.bg(shadow:true)~t.merge(m:underlay,i:eU44YkFJOHlVMmZrWVRDOUNTRm1D,b:screen,r:true)/MZZKB3e1hT48o0NYJ2Kxh.jpeg?dpr=2.5&f_auto=true`,
    `${CDN}/v2/demo/p:thumb~p:card(w:3)~p.apply(n:card,w:3)/a/b/c.png?dpr=auto`,
    `${CDN}/v2/demo/t.merge(bboxes:[[10_10_100_100]_[5_5_5_5]],tr:t.resize(w:1,h:2)~t.flip())/a.png`,
    `${CDN}/v2/demo/t.rotate(a:-249)/x.jpg/`,
    'http://localhost:4201/v2/demo/t.toFormat(f:webp)/samples/astronaut.png?f_auto=true',
  ]
  it.each(canonical)('objToUrl(urlToObj(u)) === u for %s', (url) => {
    expect(objToUrl(urlToObj(url))).toBe(url)
  })

  it.each([
    'https://img.shop.test/v2/zonesl/t.resize(w:1)/test/a.jpeg',
    'https://img.shop.test/v1/original/a.jpeg?dpr=2',
    'https://img.shop.test/v2/wrkr/old/a.png',
  ])('round-trips the custom-domain URL %s', (url) => {
    expect(objToUrl(urlToObj(url, { isCustomDomain: true }))).toBe(url)
  })
})
