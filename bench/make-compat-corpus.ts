// Writes packages/url/src/fixtures/pixelbin-corpus.json: what @pixelbin/core 6.1.0 answers for a
// list of delivery URLs, to test @tessera/url's compatibility against. Run with `npm run corpus`.
//
// Each entry is { url, isCustomDomain, note, obj?, error?, rebuilt? }:
// - obj: pixelbin's urlToObj(url, { isCustomDomain }) result, as JSON (keys whose value is
//   undefined, such as `zone` for the default zone, are left out);
// - error: { name, message } when urlToObj throws (then there is no obj and no rebuilt);
// - rebuilt: pixelbin's objToUrl on a copy of obj with `isCustomDomain` added (its urlToObj does
//   not report it, and without it a custom-domain object cannot be rebuilt), or
//   { error: { name, message } } when objToUrl throws.
// The URL cases follow shared/reference/url-grammar.md §1–§4.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import pixelbin from '@pixelbin/core'

const { urlToObj, objToUrl } = pixelbin.default.utils

const OUTPUT = fileURLToPath(
  new URL('../packages/url/src/fixtures/pixelbin-corpus.json', import.meta.url),
)

const CDN = 'https://cdn.pixelbin.io'
const CUSTOM = 'https://cdn.twist.vision'

interface Case {
  url: string
  note: string
  isCustomDomain?: boolean
}

const CASES: Case[] = [
  // §1 canonical shapes, from the public docs and the SDK tests.
  {
    url: `${CDN}/v2/red-scene-95b6ea/t.resize()/__playground/playground-default.jpeg`,
    note: 'docs: empty parameter list',
  },
  {
    url: `${CDN}/v2/dac/ek69d0/original/__playground/playground-default.jpeg`,
    note: 'docs: zone, original',
  },
  { url: `${CDN}/v2/falling-surf-7c8bb8/fyndnp/wrkr/robots.txt`, note: 'docs: worker with zone' },
  {
    url: `${CDN}/v2/feel/erase.bg(shadow:true)~t.merge(m:underlay,i:eU44YkFJOHlVMmZrWVRDOUNTRm1D,b:screen,r:true)/MZZKB3e1hT48o0NYJ2Kxh.jpeg?dpr=2.5&f_auto=true`,
    note: 'docs: merge chain with query options',
  },
  {
    url: `${CDN}/v2/demo/t.resize(h:200,w:300)~t.flip()/samples/astronaut.png`,
    note: 'two operations, one without parameters',
  },
  { url: `${CDN}/v2/demo/wrkr/robots.txt`, note: 'worker, default zone' },
  { url: `${CDN}/v2/demo/wrkr/resize:w200,h200/image.jpeg`, note: 'worker path with : and ,' },
  { url: `${CDN}/v2/demo/fyndnp/wrkr/`, note: 'worker with zone and empty worker path' },
  { url: `${CDN}/v1/demo/original/a.jpg`, note: 'version v1' },
  { url: `${CDN}/demo/original/a.jpg`, note: 'no version: parsed as v1' },
  {
    url: `${CDN}/v2/demo/z-slug/t.rotate(a:-249)/catalog/2024/item.png`,
    note: 'zone with -, negative value',
  },
  { url: `${CDN}/v2/demo/ab-cd_/original/a/b/c.jpeg`, note: 'zone with - and _, nested file path' },
  { url: 'http://localhost:8080/v2/demo/original/a.jpg', note: 'http with a port' },
  { url: `${CDN}/v2/demo/original/a.jpg#frag`, note: 'fragment is ignored' },

  // §1 custom domains.
  {
    url: `${CUSTOM}/v2/zonesl/t.resize()/test/__playground/playground-default.jpeg`,
    note: 'custom domain with zone',
    isCustomDomain: true,
  },
  {
    url: `${CUSTOM}/v2/t.resize(w:100)/a.jpg`,
    note: 'custom domain, default zone',
    isCustomDomain: true,
  },
  { url: `${CUSTOM}/v2/wrkr/robots.txt`, note: 'custom domain worker', isCustomDomain: true },
  {
    url: `${CUSTOM}/v2/zonesl/wrkr/a/b.txt`,
    note: 'custom domain worker with zone',
    isCustomDomain: true,
  },
  {
    url: `${CUSTOM}/v1/original/a.jpg?dpr=2`,
    note: 'custom domain v1 with dpr',
    isCustomDomain: true,
  },
  {
    url: `${CUSTOM}/original/a.jpg`,
    note: 'custom domain without version: invalid',
    isCustomDomain: true,
  },

  // §1 edge cases of the path shapes.
  { url: `${CDN}/v10/original/x.jpg`, note: 'v10 is a cloud name, version v1' },
  {
    url: `${CDN}/v3/red-scene-95b6ea/original/x.jpg`,
    note: 'v3 is the cloud-name candidate, too short',
  },
  { url: `${CDN}/v2`, note: 'version only' },
  { url: `${CDN}//v2/demo/original/x.jpg`, note: 'empty first segment' },
  { url: `${CDN}/v2/cloud/original`, note: 'no file segment' },
  { url: `${CDN}/v2/cloud/original/`, note: 'empty file path' },
  { url: `${CDN}/v2/cloud/original/x.jpg/`, note: 'trailing slash kept in file path' },
  { url: `${CDN}/v2/cloud/original/a%20b.jpg`, note: 'percent-escape kept' },
  { url: `${CDN}/v2/ab/original/x.jpg`, note: 'cloud name of 2 characters' },
  { url: `${CDN}/v2/my.cloud/original/x.jpg`, note: 'cloud name with a dot' },
  { url: `${CDN}/v2/cloud/abcdef/x.jpg`, note: '6-character segment read as a pattern' },
  {
    url: `${CDN}/v2/cloud/test/original/x.jpg`,
    note: '4-character zone candidate read as a pattern',
  },
  {
    url: `${CDN}/v2/cloud/zonesls/original/x.jpg`,
    note: '7-character zone candidate read as a pattern',
  },
  {
    url: `${CDN}/v2/cloud/original/z0/orgs/33/wrkr/icons/x.png`,
    note: 'wrkr inside the file path',
  },
  { url: `${CDN}/v2/cloud/t.flip()/original/x.jpg`, note: 'original inside the file path' },

  // §3 pattern grammar and the parser's quirks.
  { url: `${CDN}/v2/demo/p:thumbnail/a.jpg`, note: 'bare preset' },
  { url: `${CDN}/v2/demo/p:thumbnail~t.grey()/a.jpg`, note: 'preset then operation' },
  { url: `${CDN}/v2/demo/p:preset1()/a.jpg`, note: 'preset with empty parentheses' },
  { url: `${CDN}/v2/demo/p:preset1(a:12/a.jpg`, note: 'preset without closing parenthesis' },
  { url: `${CDN}/v2/demo/p.apply(n:presetNameXyx)/a.jpg`, note: 'p.apply form' },
  { url: `${CDN}/v2/demo/t.compress/a.jpg`, note: 'operation without parentheses' },
  { url: `${CDN}/v2/demo/erase.bg()/a.jpg`, note: 'operation without parameters' },
  {
    url: `${CDN}/v2/demo/t.resize(-h:1,w:2)/a.jpg`,
    note: 'leading - of the parameter list dropped',
  },
  { url: `${CDN}/v2/demo/t.merge(i:a:b)/a.jpg`, note: 'value with a second colon' },
  { url: `${CDN}/v2/demo/t.resize(h)/a.jpg`, note: 'key without value' },
  { url: `${CDN}/v2/demo/t.resize(h:1,h:2,w:3)/a.jpg`, note: 'duplicate keys' },
  { url: `${CDN}/v2/demo/t.resize(h:10)x/a.jpg`, note: 'text after the closing parenthesis' },
  { url: `${CDN}/v2/demo/t.resize(h:(1))/a.jpg`, note: 'nested parentheses' },
  { url: `${CDN}/v2/demo/t.flip()~~t.flop()/a.jpg`, note: 'empty operation' },
  { url: `${CDN}/v2/demo/original~original/a.jpg`, note: 'original twice' },
  {
    url: `${CDN}/v2/demo/t.extract(bbox:0_0_100_100)~t.tint(c:000000)/a.png`,
    note: 'box and colour values',
  },
  {
    url: `${CDN}/v2/demo/t.merge(bboxes:[[10_10_100_100]_[200_20_100_100]])/a.png`,
    note: 'list value with brackets',
  },

  // §4 query options.
  { url: `${CDN}/v2/demo/original/a.jpg?dpr=auto`, note: 'dpr auto' },
  { url: `${CDN}/v2/demo/original/a.jpg?dpr=1.50&f_auto=TRUE`, note: 'dpr 1.50, f_auto TRUE' },
  { url: `${CDN}/v2/demo/original/a.jpg?f_auto=false`, note: 'f_auto false' },
  { url: `${CDN}/v2/demo/original/a.jpg?dpr=1&dpr=2`, note: 'repeated dpr: last wins' },
  { url: `${CDN}/v2/demo/original/a.jpg?foo=bar&dpr=2`, note: 'unknown query key ignored' },
  { url: `${CDN}/v2/demo/original/a.jpg?dpr=6`, note: 'dpr out of range' },
  { url: `${CDN}/v2/demo/original/a.jpg?dpr=abc`, note: 'dpr not a number' },
  { url: `${CDN}/v2/demo/original/a.jpg?dpr=`, note: 'empty dpr' },
  { url: `${CDN}/v2/demo/original/a.jpg?dpr`, note: 'dpr without value' },
  { url: `${CDN}/v2/demo/original/a.jpg?f_auto`, note: 'f_auto without value' },
]

interface ErrorInfo {
  name: string
  message: string
}

interface Entry {
  url: string
  isCustomDomain: boolean
  note: string
  obj?: unknown
  error?: ErrorInfo
  rebuilt?: string | { error: ErrorInfo }
}

function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: typeof error, message: String(error) }
}

const entries: Entry[] = CASES.map(({ url, note, isCustomDomain = false }) => {
  const entry: Entry = { url, isCustomDomain, note }
  let obj: ReturnType<typeof urlToObj>
  try {
    obj = urlToObj(url, { isCustomDomain })
  } catch (error) {
    entry.error = errorInfo(error)
    return entry
  }
  // Keep the object as urlToObj returned it: objToUrl writes into its input.
  entry.obj = structuredClone(obj)
  try {
    entry.rebuilt = objToUrl({ ...structuredClone(obj), isCustomDomain })
  } catch (error) {
    entry.rebuilt = { error: errorInfo(error) }
  }
  return entry
})

mkdirSync(dirname(OUTPUT), { recursive: true })
writeFileSync(OUTPUT, `${JSON.stringify(entries, null, 2)}\n`)
const failed = entries.filter((entry) => entry.error !== undefined).length
console.log(
  `Wrote ${entries.length} entries (${failed} urlToObj errors) to ${OUTPUT.slice(OUTPUT.indexOf('packages/'))}`,
)
