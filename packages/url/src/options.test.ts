import { describe, expect, it } from 'vitest'
import { IllegalQueryParameterError, MESSAGES } from './errors.ts'
import { buildQueryOptions, parseDpr, parseFAuto, parseQueryOptions } from './options.ts'

describe('parseDpr', () => {
  it.each<[unknown, number | 'auto']>([
    ['auto', 'auto'],
    ['0.1', 0.1],
    ['5', 5],
    ['5.0', 5],
    [2.5, 2.5],
    ['.5', 0.5],
  ])('reads %j', (value, dpr) => {
    expect(parseDpr(value)).toBe(dpr)
  })

  it.each([
    ['0.09'],
    ['5.01'],
    ['abc'],
    [''],
    [undefined],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    ['AUTO'],
    [' 2'],
  ])('refuses %j with the DPR message', (value) => {
    expect(() => parseDpr(value)).toThrowError(new IllegalQueryParameterError(MESSAGES.dpr))
  })
})

describe('parseFAuto', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ['', true],
    ['true', true],
    ['True', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads %j as %s', (value, flag) => {
    expect(parseFAuto(value)).toBe(flag)
  })

  it('refuses anything else with the f_auto message', () => {
    expect(() => parseFAuto('yes')).toThrowError(new IllegalQueryParameterError(MESSAGES.fAuto))
  })
})

describe('query options', () => {
  it('reads percent-encoded keys and values and ignores other keys', () => {
    expect(parseQueryOptions('?%64pr=1.5&f%5Fauto=%74rue&w=3')).toEqual({ dpr: 1.5, f_auto: true })
  })

  // Issue 9 item 13: a repeated option was read silently (the last one won).
  it('refuses a repeated option unless asked to let the last one win', () => {
    expect(() => parseQueryOptions('?dpr=1&dpr=2')).toThrowError(
      MESSAGES.duplicateQueryParameter('dpr'),
    )
    expect(() => parseQueryOptions('f_auto=true&f%5Fauto=false')).toThrowError(
      MESSAGES.duplicateQueryParameter('f_auto'),
    )
    expect(parseQueryOptions('?dpr=1&dpr=2', { lastWins: true })).toEqual({ dpr: 2 })
    expect(parseQueryOptions('?v=1&v=2&dpr=2')).toEqual({ dpr: 2 })
  })

  it('keeps malformed percent-escapes as text', () => {
    expect(() => parseQueryOptions('dpr=%E0%A4%A')).toThrowError(MESSAGES.dpr)
  })

  it.each<[Parameters<typeof buildQueryOptions>[0], string]>([
    [undefined, ''],
    [{}, ''],
    [{ dpr: 2 }, '?dpr=2'],
    [{ dpr: '2.50' }, '?dpr=2.5'],
    [{ f_auto: true, dpr: 'auto' }, '?dpr=auto&f_auto=true'],
    [{ f_auto: false }, ''],
  ])('writes %j as %j', (options, query) => {
    expect(buildQueryOptions(options)).toBe(query)
  })
})
