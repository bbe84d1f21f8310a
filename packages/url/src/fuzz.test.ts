// Fuzzing: random and mutated inputs must only ever raise this package's own errors, and huge
// adversarial inputs must be read in one pass (the scanners use no backtracking regexes).
// Speed itself is measured in bench/, never asserted here; the per-test timeout only guards
// against a hang. The inputs and checks live in ../test/fuzz-inputs.ts, shared with
// bench/url-fuzz.bench.ts (1,000,000 inputs).
import { describe, expect, it } from 'vitest'
import { checkFuzzInput, createRandom, fuzzInput, PRESETS } from '../test/fuzz-inputs.ts'
import { formatBytes } from './bytes.ts'
import { parseColor, rgbToHex } from './color.ts'
import { objToUrl, urlToObj } from './delivery-url.ts'
import { UrlError } from './errors.ts'
import { parsePattern } from './parse-pattern.ts'
import { buildPattern, parseTransformations } from './pattern.ts'
import { expandPresets } from './presets.ts'

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

describe('fuzzing the URL language', () => {
  it('throws only its own errors on 100,000 random and mutated inputs', () => {
    const random = createRandom(20261121)
    let checked = 0
    let parsedUrls = 0
    for (let i = 0; i < 100_000; i++) {
      if (checkFuzzInput(fuzzInput(random, i))) parsedUrls++
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
