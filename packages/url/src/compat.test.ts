// Compatibility with @pixelbin/core: every entry of the golden corpus was produced by the real
// peer library (bench/make-compat-corpus.ts). We must read and rebuild each URL the same way,
// except for the deliberate differences of docs/decisions/001-url-language-compatibility.md,
// which are listed here with what we do instead.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { objToUrl, type UrlObject, urlToObj } from './delivery-url.ts'
import {
  IllegalArgumentError,
  IllegalQueryParameterError,
  InvalidUrlError,
  MESSAGES,
  TransformationError,
  type UrlError,
} from './errors.ts'

interface CorpusEntry {
  url: string
  isCustomDomain: boolean
  note: string
  obj?: Record<string, unknown>
  error?: { name: string; message: string }
  rebuilt?: string | { error: { name: string; message: string } }
}

const corpus: CorpusEntry[] = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'pixelbin-corpus.json'), 'utf8'),
)

const BASE = 'https://cdn.pixelbin.io/v2/demo'
type Deviation = { reads?: Partial<UrlObject>; throws?: string; rebuilds?: string }
const DEVIATIONS: Record<string, Deviation> = {
  'https://cdn.pixelbin.io/v2/demo/fyndnp/wrkr/': { rebuilds: `${BASE}/fyndnp/wrkr/` },
  [`${BASE}/p.apply(n:presetNameXyx)/a.jpg`]: {
    rebuilds: `${BASE}/p.apply(n:presetNameXyx)/a.jpg`,
  },
  [`${BASE}/t.resize(-h:1,w:2)/a.jpg`]: {
    reads: {
      transformations: [
        {
          plugin: 't',
          name: 'resize',
          values: [
            { key: '-h', value: '1' },
            { key: 'w', value: '2' },
          ],
        },
      ],
    },
    rebuilds: `${BASE}/t.resize(-h:1,w:2)/a.jpg`,
  },
  [`${BASE}/t.merge(i:a:b)/a.jpg`]: {
    reads: {
      transformations: [{ plugin: 't', name: 'merge', values: [{ key: 'i', value: 'a:b' }] }],
    },
    rebuilds: `${BASE}/t.merge(i:a:b)/a.jpg`,
  },
  [`${BASE}/t.resize(h)/a.jpg`]: { throws: MESSAGES.errorProcessingUrl },
  [`${BASE}/t.resize(h:10)x/a.jpg`]: { throws: MESSAGES.errorProcessingUrl },
  [`${BASE}/t.resize(h:(1))/a.jpg`]: {
    reads: {
      transformations: [{ plugin: 't', name: 'resize', values: [{ key: 'h', value: '(1)' }] }],
    },
    rebuilds: `${BASE}/t.resize(h:(1))/a.jpg`,
  },
  'https://cdn.pixelbin.io/v2/demo/original/a.jpg?f_auto': {
    reads: { options: { f_auto: true } },
    rebuilds: 'https://cdn.pixelbin.io/v2/demo/original/a.jpg?f_auto=true',
  },
}

const ERROR_CLASSES: Record<string, new (message: string) => UrlError> = {
  PDKInvalidUrlError: InvalidUrlError,
  PDKIllegalArgumentError: IllegalArgumentError,
  PDKIllegalQueryParameterError: IllegalQueryParameterError,
  PDKTransformationError: TransformationError,
}

function read(entry: CorpusEntry): UrlObject {
  return urlToObj(entry.url, { isCustomDomain: entry.isCustomDomain })
}

function expectSameError(action: () => unknown, expected: { name: string; message: string }) {
  const errorClass = ERROR_CLASSES[expected.name]
  expect(errorClass, `a Pixelbin error class, not ${expected.name}`).toBeDefined()
  expect(action).toThrowError(errorClass as new (message: string) => UrlError)
  expect(action).toThrowError(
    expected.message.replace('Invalid pixelbin url', 'Invalid Tessera url'),
  )
}

describe('compatibility with @pixelbin/core on its own outputs', () => {
  it('has a corpus to check', () => {
    expect(corpus.length).toBeGreaterThan(50)
  })

  it.each(corpus.map((entry) => [entry.note, entry] as const))('%s', (_note, entry) => {
    const deviation = DEVIATIONS[entry.url]
    if (deviation?.throws !== undefined) {
      expect(() => read(entry)).toThrowError(deviation.throws)
      return
    }
    if (entry.error !== undefined && deviation === undefined) {
      expectSameError(() => read(entry), entry.error)
      return
    }
    const ours = read(entry)
    // Pixelbin's object, with our deliberate differences applied; every key it has must match.
    const expected = { ...entry.obj, ...deviation?.reads }
    for (const [key, value] of Object.entries(expected)) {
      expect(JSON.parse(JSON.stringify(ours[key as keyof UrlObject] ?? null)), key).toEqual(value)
    }
    if (entry.obj !== undefined && !('zone' in entry.obj)) expect(ours.zone).toBeUndefined()
    const rebuilt = deviation?.rebuilds ?? entry.rebuilt
    if (typeof rebuilt === 'string') expect(objToUrl(ours)).toBe(rebuilt)
    else if (rebuilt !== undefined) expectSameError(() => objToUrl(ours), rebuilt.error)
  })
})
