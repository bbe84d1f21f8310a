// Fuzzing: random and mutated inputs must only ever raise this package's own errors, and huge
// adversarial inputs must be read in one pass (the scanners use no backtracking regexes).
// Speed itself is measured in bench/, never asserted here; the per-test timeout only guards
// against a hang.
import { describe, expect, it } from 'vitest'
import { formatBytes } from './bytes.ts'
import { parseColor, rgbToHex } from './color.ts'
import { objToUrl, urlToObj } from './delivery-url.ts'
import { UrlError } from './errors.ts'
import { parseQueryOptions } from './options.ts'
import { parsePattern } from './parse-pattern.ts'
import { buildPattern, parseTransformations } from './pattern.ts'
import { expandPresets } from './presets.ts'

// A small deterministic generator (xorshift32), so a failure can be replayed from its seed.
function createRandom(seed: number) {
  let state = seed >>> 0 || 1
  const next = () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 4294967296
  }
  return {
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
  }
}

const SEEDS = [
  'https://cdn.example.com/v2/demo/t.resize(h:200,w:300)~t.flip()/samples/astronaut.png',
  'https://cdn.example.com/v2/dac/ek69d0/original/__playground/playground-default.jpeg?dpr=2.5&f_auto=true',
  'https://cdn.example.com/v2/falling-surf-7c8bb8/fyndnp/wrkr/robots.txt',
  'https://img.shop.test/v2/zonesl/p:thumb(w:3)~p.apply(n:card,w:4)/a/b.jpg',
  'http://localhost:4201/v2/demo/t.merge(m:underlay,i:abc,bboxes:[[1_2_3_4]_[5_6_7_8]],polys:[[[1_2]_[3_4]]],tr:t.resize(w:1)~t.flip())/x.png',
  'https://cdn.example.com/demo/erase.bg(shadow:true)~sr.upscale(t:4x)~t.toFormat(f:webp,q:best)/a.jpg?dpr=auto',
]
const NASTY = [
  ...'()[]{}~,:;/\\?#&=%$_.-+ \t\n\'"`<>@!*|^',
  '\u0000',
  '\u00e9',
  '\u{1F600}',
  '\uD800',
  'wrkr',
  'original',
  'p:',
  'p.apply(',
  'v2',
  'v1',
  '%2e',
  '..',
  '%',
  '%zz',
  'dpr=',
  'f_auto',
]
const ALPHABET = [...'abcXYZ0189', ...NASTY]

function mutate(random: ReturnType<typeof createRandom>, input: string): string {
  let text = input
  const edits = 1 + random.int(6)
  for (let i = 0; i < edits; i++) {
    const at = random.int(text.length + 1)
    const action = random.int(5)
    if (action === 0) text = text.slice(0, at) + random.pick(ALPHABET) + text.slice(at)
    else if (action === 1) text = text.slice(0, at) + text.slice(at + 1 + random.int(4))
    else if (action === 2) text = text.slice(0, at) + random.pick(ALPHABET) + text.slice(at + 1)
    else if (action === 3)
      text =
        text.slice(0, at) +
        text.slice(at, at + 1 + random.int(12)).repeat(1 + random.int(4)) +
        text.slice(at)
    else text = text.slice(0, at) + random.pick(SEEDS).slice(random.int(40)) + text.slice(at)
  }
  return text
}

function randomText(random: ReturnType<typeof createRandom>): string {
  let text = ''
  const length = random.int(80)
  for (let i = 0; i < length; i++) text += random.pick(ALPHABET)
  return text
}

/** Runs `fn`, and fails the test if it throws anything but this package's own errors. */
function expectOwnErrorsOnly(fn: () => unknown, input: unknown): void {
  try {
    fn()
  } catch (error) {
    if (!(error instanceof UrlError)) {
      throw new Error(`non-UrlError for input ${JSON.stringify(input)}: ${String(error)}`)
    }
  }
}

const PRESETS = {
  thumb: {
    transformation: 't.resize(w:$w,h:$w)',
    params: { w: { type: 'integer', default: 100 } },
  },
  plain: { transformation: 't.flip()~t.grey()' },
  self: { transformation: 'p:self' },
}

describe('fuzzing the URL language', () => {
  it('throws only its own errors on 100,000 random and mutated inputs', () => {
    const random = createRandom(20261121)
    let checked = 0
    let parsedUrls = 0
    for (let i = 0; i < 100_000; i++) {
      const input = i % 4 === 0 ? randomText(random) : mutate(random, random.pick(SEEDS))
      const pathStart = input.indexOf('/', 9)
      const pattern = pathStart === -1 ? input : (input.slice(pathStart + 1).split('/')[2] ?? input)
      expectOwnErrorsOnly(() => {
        urlToObj(input)
        parsedUrls++
      }, input)
      expectOwnErrorsOnly(() => urlToObj(input, { isCustomDomain: true }), input)
      expectOwnErrorsOnly(() => parsePattern(pattern, { format: 'png' }), pattern)
      expectOwnErrorsOnly(() => parseTransformations(pattern), pattern)
      expectOwnErrorsOnly(() => expandPresets(pattern, PRESETS), pattern)
      expectOwnErrorsOnly(() => parseQueryOptions(input), input)
      expectOwnErrorsOnly(() => parseColor(input), input)
      expectOwnErrorsOnly(() => {
        const obj = urlToObj(input)
        // What was read must build again, and to a URL that reads back the same (the raw pattern
        // text may differ: a repeated key is written once).
        expect({ ...urlToObj(objToUrl(obj)), pattern: '' }).toEqual({ ...obj, pattern: '' })
      }, input)
      checked++
    }
    expect(checked).toBe(100_000)
    // The mutations must leave a fair share of valid URLs, or the round-trip check is idle.
    expect(parsedUrls).toBeGreaterThan(10_000)
  }, 120_000)

  it('throws only its own errors for odd argument types', () => {
    const odd = [
      undefined,
      null,
      0,
      -1,
      Number.NaN,
      true,
      {},
      [],
      [[]],
      () => 1,
      Symbol('x'),
      10n,
      new Date(0),
      Object.create(null),
    ]
    for (const value of odd) {
      expectOwnErrorsOnly(() => urlToObj(value as string), value)
      expectOwnErrorsOnly(() => urlToObj('https://a.b/v2/demo/original/a', value as never), value)
      expectOwnErrorsOnly(() => objToUrl(value as never), value)
      expectOwnErrorsOnly(() => buildPattern(value as never), value)
      expectOwnErrorsOnly(
        () =>
          buildPattern([{ plugin: 't', name: 'a', values: [{ key: 'k', value: value as never }] }]),
        value,
      )
      expectOwnErrorsOnly(() => parsePattern(value as string), value)
      expectOwnErrorsOnly(() => parsePattern('t.compress()', { format: value as string }), value)
      expectOwnErrorsOnly(() => parseTransformations(value as string), value)
      expectOwnErrorsOnly(() => expandPresets('p:a(w:1)', value as never), value)
      expectOwnErrorsOnly(() => expandPresets('p:a(w:1)', { a: value as never }), value)
      expectOwnErrorsOnly(
        () =>
          expandPresets('p:a(w:1)', {
            a: { transformation: 't.x(w:$w)', params: { w: value as never } },
          }),
        value,
      )
      expectOwnErrorsOnly(() => rgbToHex(value as number, 0, 0, value as number), value)
      expectOwnErrorsOnly(() => parseColor(value as string), value)
      expectOwnErrorsOnly(() => formatBytes(value as number, value as number), value)
    }
  })

  it('reads 100 KB adversarial inputs in one pass', () => {
    const kb100 = 100 * 1024
    const fill = (unit: string) => unit.repeat(Math.ceil(kb100 / unit.length)).slice(0, kb100)
    const patterns = [
      fill('('),
      fill('['),
      fill(')'),
      fill('~'),
      fill('t.resize(w:1)~'),
      `t.merge(tr:${fill('(')})`,
      `t.merge(bboxes:${fill('[')}${fill(']')})`,
      `t.resize(${fill('w:1,')}h:2)`,
      `t.resize(w:${fill('9')})`,
      fill('p:a~'),
      fill('a'),
      fill('\u00e9'),
    ]
    for (const pattern of patterns) {
      const result = parsePattern(pattern)
      expect(result.value.length + result.issues.length).toBeGreaterThan(0)
      expectOwnErrorsOnly(
        () => urlToObj(`https://cdn.example.com/v2/demo/${pattern}/a.jpg`),
        'large',
      )
      expectOwnErrorsOnly(() => parseTransformations(pattern), 'large')
      expectOwnErrorsOnly(() => expandPresets(pattern, PRESETS), 'large')
    }
    const longPath = `https://cdn.example.com/v2/demo/original/${fill('a/')}`
    expect(urlToObj(longPath).filePath.length).toBeGreaterThan(kb100 - 100)
    expect(
      urlToObj(`https://cdn.example.com/v2/demo/original/a.jpg?${fill('x=1&')}dpr=2`).options,
    ).toEqual({ dpr: 2 })
  }, 30_000)
})
