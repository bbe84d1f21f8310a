// The URL benchmark's inputs (url.bench.ts): the delivery URLs both libraries are given, their
// patterns and objects, the check that both accept them alike, and the sink every timed call
// feeds.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import pixelbin, { type PixelbinUrlObject } from '@pixelbin/core'
import { objToUrl, parsePattern, type UrlObject, urlToObj } from '@tessera/url'

export const peer = pixelbin.default.utils
const require = createRequire(import.meta.url)
export const peerVersion: string = require('@pixelbin/core/package.json').version
// tinybench's `exports` hide its package.json; read it next to its entry point instead.
export const tinybenchVersion: string = JSON.parse(
  readFileSync(join(dirname(require.resolve('tinybench')), '..', 'package.json'), 'utf8'),
).version

/** A realistic mixed corpus: plain, zoned, worker, query-option, preset and custom-domain URLs. */
export const CORPUS: ReadonlyArray<{ url: string; isCustomDomain: boolean }> = [
  'https://cdn.example.com/v2/demo/t.resize(h:200,w:300)~t.flip()/samples/astronaut.png',
  'https://cdn.example.com/v2/demo/ek69d0/original/a/b/c.jpeg',
  'https://cdn.example.com/v2/demo/wrkr/robots.txt',
  'https://cdn.example.com/v2/demo/fyndnp/wrkr/resize:w200,h200/image.jpeg',
  'https://cdn.example.com/v2/demo/t.resize(w:800)~t.compress(q:80)/products/shoe-01.webp?dpr=2.5&f_auto=true',
  'https://cdn.example.com/v2/feel/erase.bg(shadow:true)~t.merge(m:underlay,i:eU44YkFJOHlVMmZrWVRDOUNTRm1D,b:screen,r:true)/MZZKB3e1hT48o0NYJ2Kxh.jpeg?dpr=2.5&f_auto=true',
  'https://cdn.example.com/v2/demo/z-slug/t.extract(bbox:0_0_100_100)~t.rotate(a:-90)~t.toFormat(f:webp)/catalog/2024/item.png',
  'https://cdn.example.com/v2/demo/p:thumbnail~t.grey()/users/42/avatar.jpg?f_auto=true',
  'https://cdn.example.com/v2/demo/t.resize(h:400,w:400,f:cover)~sr.upscale(t:2x)~wm.remove()/folder/photo%20one.jpg?dpr=auto',
  'https://cdn.example.com/v2/demo/original/docs/guide.pdf',
]
  .map((url) => ({ url, isCustomDomain: false }))
  .concat([
    // A custom-domain URL: no cloud name, the host names the organisation.
    {
      url: 'https://images.shop.example/v2/zonesl/t.resize(w:640)~t.sharpen(s:1)/hero/banner.jpg',
      isCustomDomain: true,
    },
  ])

// The patterns of the corpus (non-worker, non-original) for the parse benchmarks.
export const PATTERNS: readonly string[] = CORPUS.map(({ url, isCustomDomain }) =>
  urlToObj(url, { isCustomDomain }),
)
  .map((obj) => obj.pattern)
  .filter((pattern) => pattern !== '' && pattern !== 'original')

// @pixelbin/core has no public standalone pattern parser (the one inside, getTransformation-
// DetailsFromPattern, is not exported), so its peer is urlToObj on a minimal URL wrapping the
// pattern, reading `.transformations`. These URLs are built here, outside the timed loop.
export const PATTERN_URLS: readonly string[] = PATTERNS.map(
  (p) => `https://cdn.example.com/v2/demo/${p}/a.jpg`,
)

// Objects for objToUrl, each made by the library's own urlToObj. Pixelbin's objects get
// `isCustomDomain` added, as a caller has to (its urlToObj does not report it).
export const OUR_OBJECTS: readonly UrlObject[] = CORPUS.map(({ url, isCustomDomain }) =>
  urlToObj(url, { isCustomDomain }),
)
export const PEER_OBJECTS: ReadonlyArray<PixelbinUrlObject & { isCustomDomain: boolean }> =
  CORPUS.map(({ url, isCustomDomain }) => ({
    ...peer.urlToObj(url, { isCustomDomain }),
    isCustomDomain,
  }))

// Pixelbin's objToUrl writes into its input (baseUrl, pattern, version, zone, and `values: []`
// into each transformation entry), so every call gets a fresh copy of the object and of its
// transformation entries. Ours does not mutate, but gets exactly the same copying so the two
// columns pay the same overhead.
export function copyObject<T extends { transformations: readonly object[] }>(obj: T): T {
  return { ...obj, transformations: obj.transformations.map((t) => ({ ...t })) }
}

// Sanity: both libraries accept every input, agree on the transformations, and round-trip.
export function checkInputs(): string[] {
  const problems: string[] = []
  CORPUS.forEach(({ url, isCustomDomain }, i) => {
    const ours = OUR_OBJECTS[i] as UrlObject
    const theirs = PEER_OBJECTS[i] as PixelbinUrlObject
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value))
    if (!isDeepStrictEqual(plain(ours.transformations), plain(theirs.transformations))) {
      problems.push(`transformations differ for ${url}`)
    }
    const oursBack = objToUrl(copyObject(ours))
    const theirsBack = peer.objToUrl(copyObject({ ...theirs, isCustomDomain }))
    if (oursBack !== url) problems.push(`ours does not round-trip ${url} (got ${oursBack})`)
    if (theirsBack !== url) problems.push(`pixelbin does not round-trip ${url} (got ${theirsBack})`)
  })
  PATTERNS.forEach((pattern) => {
    const { issues } = parsePattern(pattern)
    if (issues.length > 0)
      problems.push(`parsePattern drops part of ${pattern}: ${issues[0]?.message}`)
  })
  return problems
}

// A sink the optimiser cannot see through, so no call is dead code.
export let sink = 0
export const consume = (value: unknown) => {
  if (value === sink) sink++
}
// Reading a character forces a string built by concatenation to be flattened, as any real use
// (an <img src>, an HTTP request) would, so both libraries pay for a finished string.
export const consumeText = (text: string) => consume(text.charCodeAt(text.length - 1))
