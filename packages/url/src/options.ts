import { isDecimalText } from './chars.ts'
import { DPR_RANGE } from './constants.ts'
import { IllegalQueryParameterError, MESSAGES } from './errors.ts'

/** The query options of a delivery URL. */
export interface UrlOptions {
  /** Device pixel ratio: `'auto'` (from client hints) or 0.1 to 5.0. */
  dpr?: number | 'auto' | undefined
  /** Pick AVIF, WebP or the source format from the Accept header. */
  f_auto?: boolean | undefined
}

/** The query options delivery reads; any other key is ignored (and refused on signed URLs). */
export const QUERY_OPTION_KEYS: readonly string[] = ['dpr', 'f_auto']

/** Options as the builder accepts them (a dpr may be numeric text). */
export interface UrlOptionsInput {
  dpr?: number | string | null | undefined
  f_auto?: boolean | null | undefined
}

/**
 * Reads a `dpr` value: `'auto'`, or a decimal number from 0.1 to 5.0.
 *
 * @throws {IllegalQueryParameterError} 'DPR value should be numeric and should be between 0.1 to 5.0'
 * @example parseDpr('2.5') // 2.5
 */
export function parseDpr(value: unknown): number | 'auto' {
  if (value === 'auto') return 'auto'
  let dpr: number
  if (typeof value === 'number') dpr = value
  else if (typeof value === 'string' && isDecimalText(value)) dpr = Number(value)
  else throw new IllegalQueryParameterError(MESSAGES.dpr)
  if (!(dpr >= DPR_RANGE.min && dpr <= DPR_RANGE.max)) {
    throw new IllegalQueryParameterError(MESSAGES.dpr)
  }
  return dpr
}

/**
 * Reads an `f_auto` query value. `true`/`1` and `false`/`0` (any case) are accepted, and a bare
 * `?f_auto` (no value) means true, as a flag would.
 *
 * @throws {IllegalQueryParameterError} 'F_auto value should be boolean'
 */
export function parseFAuto(value: string | undefined): boolean {
  if (value === undefined || value === '') return true
  const lower = value.toLowerCase()
  if (lower === 'true' || lower === '1') return true
  if (lower === 'false' || lower === '0') return false
  throw new IllegalQueryParameterError(MESSAGES.fAuto)
}

function decodeQueryText(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return text
  }
}

/**
 * Reads the `dpr` and `f_auto` options from a query string (with or without `?`); every other
 * key is ignored. An option given twice is refused (`?dpr=1&dpr=2` has no single meaning, and a
 * cache in front could read either one), unless `lastWins` is set, as `urlToObj` does to read
 * URLs the way Pixelbin's SDK reads them.
 *
 * @throws {IllegalQueryParameterError} for a bad dpr or f_auto value, or a repeated option.
 */
export function parseQueryOptions(search: string, { lastWins = false } = {}): UrlOptions {
  const options: UrlOptions = {}
  const length = search.length
  // Pairs are read in place (split at `&`, then at the first `=`); only values are cut out.
  for (let start = search.charCodeAt(0) === QUESTION ? 1 : 0; start < length; ) {
    let end = search.indexOf('&', start)
    if (end === -1) end = length
    let equals = search.indexOf('=', start)
    if (equals >= end) equals = -1
    const key = readKey(search, start, equals === -1 ? end : equals)
    if (key !== undefined) {
      if (!lastWins && options[key] !== undefined) {
        throw new IllegalQueryParameterError(MESSAGES.duplicateQueryParameter(key))
      }
      const value = equals === -1 ? undefined : decodeQueryText(search.slice(equals + 1, end))
      if (key === 'dpr') options.dpr = parseDpr(value)
      else options.f_auto = parseFAuto(value)
    }
    start = end + 1
  }
  return options
}

const QUESTION = 63

// The option named by `search[start, end)`, decoded, or undefined for any other key.
function readKey(search: string, start: number, end: number): 'dpr' | 'f_auto' | undefined {
  const length = end - start
  if (length === 3 && search.startsWith('dpr', start)) return 'dpr'
  if (length === 6 && search.startsWith('f_auto', start)) return 'f_auto'
  const key = search.slice(start, end)
  if (!key.includes('%') && !key.includes('+')) return undefined
  const decoded = decodeQueryText(key)
  return decoded === 'dpr' || decoded === 'f_auto' ? decoded : undefined
}

/**
 * Writes options as a query string (`?dpr=2.5&f_auto=true`, dpr first), or `''` when none is
 * set. Falsy values (a dpr of 0, an f_auto of false) are left out.
 *
 * @throws {IllegalQueryParameterError} for a dpr out of range or a non-boolean f_auto.
 */
export function buildQueryOptions(options: UrlOptionsInput | null | undefined): string {
  if (options === null || options === undefined || typeof options !== 'object') return ''
  const { dpr, f_auto } = options
  let query = dpr ? `?dpr=${parseDpr(dpr)}` : ''
  if (f_auto) {
    if (typeof f_auto !== 'boolean') throw new IllegalQueryParameterError(MESSAGES.fAuto)
    query += query === '' ? '?f_auto=true' : '&f_auto=true'
  }
  return query
}
