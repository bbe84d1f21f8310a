import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { objToUrl, type UrlObjectInput, urlToObj } from './delivery-url.ts'
import { UrlError } from './errors.ts'
import { parsePattern } from './parse-pattern.ts'
import {
  buildPattern,
  parseTransformations,
  splitOperations,
  type Transformation,
} from './pattern.ts'

const chars = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: min, maxLength: max })

const NAME = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'
const name = chars(NAME, 1, 8)
const cloudName = chars(NAME, 3, 16)
const slug = chars(NAME, 6, 6)
const plainValue = chars(`${NAME}.$`, 1, 10)
// A value may itself hold a nested pattern or a list, as t.merge's tr and bboxes do.
const value = fc.oneof(
  { weight: 4, arbitrary: plainValue },
  {
    weight: 1,
    arbitrary: fc
      .tuple(name, name, plainValue, name)
      .map(([plugin, method, text, other]) => `${plugin}.${method}(a:${text},b:1)~${other}.x()`),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: -999, max: 999 }), { minLength: 1, maxLength: 4 })
      .map((list) => `[${list.join('_')}]`),
  },
)

const values = fc.uniqueArray(fc.record({ key: name, value }), {
  selector: (pair) => pair.key,
  maxLength: 5,
})
const operation: fc.Arbitrary<Transformation> = fc
  .tuple(fc.oneof(name, fc.constant('p')), name, values)
  .filter(
    ([plugin, method, list]) =>
      !(plugin === 'p' && method === 'apply' && list.some((pair) => pair.key === 'n')),
  )
  .map(([plugin, method, list]) =>
    list.length > 0 ? { plugin, name: method, values: list } : { plugin, name: method },
  )
const transformations = fc.array(operation, { maxLength: 6 })

const segment = chars(`${NAME}.~()`, 1, 10).filter((text) => text !== '.' && text !== '..')
const filePath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'))

const urlObject: fc.Arbitrary<UrlObjectInput> = fc.record({
  baseUrl: fc.constantFrom(
    'https://cdn.example.com',
    'http://localhost:4201',
    'https://img.a-b.test:8443',
  ),
  version: fc.constantFrom('v1', 'v2'),
  cloudName,
  zone: fc.option(slug, { nil: undefined }),
  transformations,
  filePath,
  options: fc.record(
    {
      dpr: fc.oneof(
        fc.constant('auto' as const),
        fc.integer({ min: 1, max: 50 }).map((n) => n / 10),
      ),
      f_auto: fc.constant(true),
    },
    { requiredKeys: [] },
  ),
})

describe('properties of the URL language', () => {
  it('reads back every object it writes, and writes back every URL it reads', () => {
    fc.assert(
      fc.property(urlObject, (obj) => {
        const url = objToUrl(obj)
        const read = urlToObj(url)
        expect(read).toMatchObject({
          baseUrl: obj.baseUrl,
          version: obj.version,
          cloudName: obj.cloudName,
          filePath: obj.filePath,
          worker: false,
          options: obj.options,
          transformations: obj.transformations,
        })
        expect(read.zone).toBe(obj.zone)
        expect(objToUrl(read)).toBe(url)
      }),
      { numRuns: 2000 },
    )
  })

  it('round-trips worker URLs and custom domains', () => {
    const worker = fc.record({
      baseUrl: fc.constant('https://img.shop.test'),
      isCustomDomain: fc.constant(true),
      zone: fc.option(slug, { nil: undefined }),
      worker: fc.constant(true),
      workerPath: fc.oneof(fc.constant(''), filePath),
    })
    fc.assert(
      fc.property(worker, (obj) => {
        const url = objToUrl(obj)
        const read = urlToObj(url, { isCustomDomain: true })
        expect(read).toMatchObject({
          worker: true,
          workerPath: obj.workerPath,
          cloudName: undefined,
        })
        expect(read.zone).toBe(obj.zone)
        expect(objToUrl(read)).toBe(url)
      }),
      { numRuns: 500 },
    )
  })

  it('parses back every pattern it builds', () => {
    fc.assert(
      fc.property(transformations, (list) => {
        expect(parseTransformations(buildPattern(list))).toEqual(list)
      }),
      { numRuns: 2000 },
    )
  })

  it('accounts for every operation of any pattern: kept or reported, never silently dropped', () => {
    const anyPattern = fc.oneof(
      fc.string(),
      transformations.map((list) => buildPattern(list)),
      fc
        .array(
          fc.constantFrom(
            't.resize(w:1)',
            't.flip()',
            'x.y()',
            't.blur(s:z)',
            'p:a',
            '(',
            ')',
            '~',
            ',',
          ),
          { maxLength: 8 },
        )
        .map((parts) => parts.join('')),
    )
    fc.assert(
      fc.property(anyPattern, (pattern) => {
        const { value: kept, issues } = parsePattern(pattern)
        const keptIndices = kept.map((operation) => operation.index)
        const droppedIndices = new Set(issues.map((issue) => issue.index))
        const count = pattern === '' || pattern === 'original' ? 0 : splitOperations(pattern).length
        // Kept and dropped operations never share an index, and together they cover the pattern.
        expect(keptIndices.filter((index) => droppedIndices.has(index))).toEqual([])
        expect([...keptIndices, ...droppedIndices].sort((a, b) => a - b)).toEqual(
          Array.from({ length: count }, (_, index) => index),
        )
      }),
      { numRuns: 3000 },
    )
  })

  it('throws only its own errors for any object given to objToUrl', () => {
    fc.assert(
      fc.property(
        fc.anything({ withObjectString: true, withNullPrototype: true }),
        fc.anything(),
        (raw, extra) => {
          const candidates = [
            raw,
            { cloudName: 'demo', filePath: 'a', transformations: raw },
            { cloudName: 'demo', filePath: 'a', options: raw },
            { ...((typeof extra === 'object' && extra) || {}), cloudName: 'demo' },
          ]
          for (const candidate of candidates) {
            try {
              objToUrl(candidate as UrlObjectInput)
            } catch (error) {
              expect(error).toBeInstanceOf(UrlError)
            }
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})
