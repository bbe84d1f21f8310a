// The URL language's fuzz inputs and checks, shared by `src/fuzz.test.ts` (100,000 inputs on
// every test run) and `bench/url-fuzz.bench.ts` (1,000,000, run by hand): a seeded generator of
// random and mutated delivery URLs, and the check every input must pass (only this package's
// own errors, and what was read builds back to a URL that reads the same).
import { parseColor } from '../src/color.ts'
import { objToUrl, urlToObj } from '../src/delivery-url.ts'
import { UrlError } from '../src/errors.ts'
import { parseQueryOptions } from '../src/options.ts'
import { parsePattern } from '../src/parse-pattern.ts'
import { parseTransformations } from '../src/pattern.ts'
import { expandPresets } from '../src/presets.ts'

/** A small deterministic generator (xorshift32), so a failure can be replayed from its seed. */
export function createRandom(seed: number) {
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

export type Random = ReturnType<typeof createRandom>

/** Valid URLs the mutations start from. */
export const SEEDS = [
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

/** `input` with 1–6 random edits: insertions, deletions, replacements, repeats, splices. */
export function mutate(random: Random, input: string): string {
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

/** Up to 80 characters of the alphabet and the nasty pieces. */
export function randomText(random: Random): string {
  let text = ''
  const length = random.int(80)
  for (let i = 0; i < length; i++) text += random.pick(ALPHABET)
  return text
}

/** Input number `index` of a run: every fourth is random text, the rest mutated seeds. */
export function fuzzInput(random: Random, index: number): string {
  return index % 4 === 0 ? randomText(random) : mutate(random, random.pick(SEEDS))
}

/** Presets the expansion checks use (one refers to itself). */
export const PRESETS = {
  thumb: {
    transformation: 't.resize(w:$w,h:$w)',
    params: { w: { type: 'integer', default: 100 } },
  },
  plain: { transformation: 't.flip()~t.grey()' },
  self: { transformation: 'p:self' },
}

/** A check an input failed: anything but a `UrlError` was thrown, or a round trip changed it. */
export class FuzzFailure extends Error {
  readonly input: unknown

  constructor(input: unknown, message: string) {
    super(`${message} for input ${JSON.stringify(input)}`)
    this.name = 'FuzzFailure'
    this.input = input
  }
}

function ownErrorsOnly(fn: () => unknown, input: unknown): void {
  try {
    fn()
  } catch (error) {
    if (error instanceof FuzzFailure) throw error
    if (!(error instanceof UrlError)) throw new FuzzFailure(input, `non-UrlError ${String(error)}`)
  }
}

/** Deep equality that ignores properties set to undefined (as vitest's `toEqual`). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keys = (value: object) =>
    Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined)
  const left = keys(a)
  const right = keys(b)
  if (left.length !== right.length) return false
  return left.every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  )
}

/**
 * Runs every check on one input; returns whether it read as a delivery URL.
 * @throws {FuzzFailure} when a check fails.
 */
export function checkFuzzInput(input: string): boolean {
  const pathStart = input.indexOf('/', 9)
  const pattern = pathStart === -1 ? input : (input.slice(pathStart + 1).split('/')[2] ?? input)
  let parsed = false
  ownErrorsOnly(() => {
    urlToObj(input)
    parsed = true
  }, input)
  ownErrorsOnly(() => urlToObj(input, { isCustomDomain: true }), input)
  ownErrorsOnly(() => parsePattern(pattern, { format: 'png' }), pattern)
  ownErrorsOnly(() => parseTransformations(pattern), pattern)
  ownErrorsOnly(() => expandPresets(pattern, PRESETS), pattern)
  ownErrorsOnly(() => parseQueryOptions(input), input)
  ownErrorsOnly(() => parseColor(input), input)
  ownErrorsOnly(() => {
    const obj = urlToObj(input)
    // What was read must build again, and to a URL that reads back the same (the raw pattern
    // text may differ: a repeated key is written once).
    const again = urlToObj(objToUrl(obj))
    if (!sameValue({ ...again, pattern: '' }, { ...obj, pattern: '' })) {
      throw new FuzzFailure(input, 'the round trip changed what was read')
    }
  }, input)
  return parsed
}
