import { isName, isNameRange } from './chars.ts'
import {
  DEFAULT_VERSION,
  IMPLICIT_VERSION,
  ORIGINAL_PATTERN,
  SLUG_LENGTH,
  WORKER_PATTERN,
} from './constants.ts'
import {
  describeType,
  IllegalArgumentError,
  InvalidUrlError,
  MESSAGES,
  type UrlError,
} from './errors.ts'
import {
  buildQueryOptions,
  parseQueryOptions,
  type UrlOptions,
  type UrlOptionsInput,
} from './options.ts'
import {
  buildPatternSegment,
  parseTransformations,
  type Transformation,
  type TransformationInput,
} from './pattern.ts'
import { readTransformations } from './read-operation.ts'
import { splitPlainUrl, splitUrl } from './split-url.ts'

/** A delivery URL version. */
export type UrlVersion = 'v1' | 'v2'

/** The object form of a delivery URL (SPEC §3), as `urlToObj` returns it. */
export interface UrlObject {
  /** `protocol//host[:port]`, e.g. `https://cdn.example.com`. */
  baseUrl: string
  version: UrlVersion
  /** Absent on custom domains, where the host names the organisation. */
  cloudName: string | undefined
  /** A 6-character zone slug, or undefined for the default zone. */
  zone: string | undefined
  /** The raw transformation text: `original`, operations joined by `~`, or `''` for workers. */
  pattern: string
  /** The file path after the pattern, percent-escapes kept; `''` for workers. */
  filePath: string
  /** True for URL-translation-worker URLs (`…/wrkr/…`). */
  worker: boolean
  /** The path after `wrkr/`; `''` for other URLs. */
  workerPath: string
  /** Whether the URL was read as a custom-domain URL. */
  isCustomDomain: boolean
  options: UrlOptions
  transformations: Transformation[]
}

/** What `objToUrl` accepts; everything is optional and `pattern` is ignored. */
export interface UrlObjectInput {
  baseUrl?: string | null | undefined
  isCustomDomain?: boolean | null | undefined
  version?: string | null | undefined
  cloudName?: string | null | undefined
  zone?: string | null | undefined
  pattern?: string | null | undefined
  filePath?: string | null | undefined
  worker?: boolean | null | undefined
  workerPath?: string | null | undefined
  options?: UrlOptionsInput | null | undefined
  transformations?: ReadonlyArray<TransformationInput> | null | undefined
}

/** Options of `urlToObj` and `parseDeliveryPath`. */
export interface ParseUrlOptions {
  /** The host is a custom domain: there is no cloud name segment and the version is required. */
  isCustomDomain?: boolean
}

/** The path-level parts of a delivery URL. */
export type DeliveryPath = Omit<UrlObject, 'baseUrl' | 'options' | 'transformations'>

const WORKER_SEGMENT = `${WORKER_PATTERN}/`

/** Base URL used by `objToUrl` when none is given. */
export const DEFAULT_BASE_URL = 'http://localhost:4201'

function isVersion(segment: string | undefined): segment is UrlVersion {
  return segment === 'v1' || segment === 'v2'
}

function isSlug(segment: string | undefined): segment is string {
  return segment !== undefined && segment.length === SLUG_LENGTH && isName(segment)
}

function invalidUrl(): InvalidUrlError {
  return new InvalidUrlError(MESSAGES.invalidUrl)
}

/**
 * Reads the path of a delivery URL (`/v2/demo/t.resize(w:300)/photos/a.jpg`) into its parts,
 * without parsing the pattern. Segments are kept exactly as in the path.
 *
 * @throws {InvalidUrlError} when the path fits no delivery-URL shape.
 */
export function parseDeliveryPath(pathname: string, options: ParseUrlOptions = {}): DeliveryPath {
  if (typeof pathname !== 'string') throw invalidUrl()
  return readDeliveryPath(pathname, 0, pathname.length, options.isCustomDomain === true)
}

// Reads the path `text[from, to)`: urlToObj passes a plain URL whole, which reads faster than a
// slice of it (every character of a sliced string is reached through its parent).
function readDeliveryPath(
  text: string,
  from: number,
  to: number,
  isCustomDomain: boolean,
): DeliveryPath {
  if (from >= to || text.charCodeAt(from) !== SLASH) throw invalidUrl()
  // Segments are found with indexOf and cut once, so a long path is not split and re-joined.
  let start = from + 1
  let end = segmentEnd(text, start, to)
  let version: UrlVersion = IMPLICIT_VERSION
  if (end - start === 2 && text.charCodeAt(start) === 118 && isVersionDigit(text, start + 1)) {
    version = text.charCodeAt(start + 1) === 49 ? 'v1' : 'v2'
    start = end + 1
    end = segmentEnd(text, start, to)
  } else if (isCustomDomain) throw invalidUrl()

  let cloudName: string | undefined
  if (!isCustomDomain) {
    if (end - start < 3 || !isNameRange(text, start, end)) throw invalidUrl()
    cloudName = text.slice(start, end)
    start = end + 1
  }
  if (start > to) throw invalidUrl()
  // The rest: first / second / more…
  const firstEnd = segmentEnd(text, start, to)
  const hasSecond = firstEnd < to
  const secondEnd = hasSecond ? segmentEnd(text, firstEnd + 1, to) : firstEnd
  const hasThird = hasSecond && secondEnd < to
  const firstIsSlug = firstEnd - start === SLUG_LENGTH && isNameRange(text, start, firstEnd)

  const shape = { version, cloudName, isCustomDomain }
  if (firstIsSlug && hasThird && isWord(text, firstEnd + 1, secondEnd, WORKER_PATTERN)) {
    return worker(shape, text.slice(start, firstEnd), text.slice(secondEnd + 1, to))
  }
  if (hasSecond && isWord(text, start, firstEnd, WORKER_PATTERN)) {
    return worker(shape, undefined, text.slice(firstEnd + 1, to))
  }
  // A 6-character first segment is a zone only when a pattern and a file path follow it.
  if (firstIsSlug && hasThird && secondEnd > firstEnd + 1) {
    patternAt = firstEnd + 1
    return file(
      shape,
      text.slice(start, firstEnd),
      text.slice(firstEnd + 1, secondEnd),
      text.slice(secondEnd + 1, to),
    )
  }
  if (hasSecond && firstEnd > start) {
    patternAt = start
    return file(shape, undefined, text.slice(start, firstEnd), text.slice(firstEnd + 1, to))
  }
  throw invalidUrl()
}

const SLASH = 47

// Where the pattern of the path readDeliveryPath read last starts in the text it was given.
let patternAt = 0

function segmentEnd(text: string, start: number, to: number): number {
  const end = text.indexOf('/', start)
  return end === -1 || end > to ? to : end
}

function isVersionDigit(path: string, at: number): boolean {
  const code = path.charCodeAt(at)
  return code === 49 || code === 50
}

function isWord(path: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && path.startsWith(word, start)
}

interface Shape {
  version: UrlVersion
  cloudName: string | undefined
  isCustomDomain: boolean
}

function worker(shape: Shape, zone: string | undefined, workerPath: string): DeliveryPath {
  return {
    version: shape.version,
    cloudName: shape.cloudName,
    zone,
    pattern: '',
    filePath: '',
    worker: true,
    workerPath,
    isCustomDomain: shape.isCustomDomain,
  }
}

function file(
  shape: Shape,
  zone: string | undefined,
  pattern: string,
  filePath: string,
): DeliveryPath {
  return {
    version: shape.version,
    cloudName: shape.cloudName,
    zone,
    pattern,
    filePath,
    worker: false,
    workerPath: '',
    isCustomDomain: shape.isCustomDomain,
  }
}

/**
 * Reads a delivery URL into its object form (SPEC §3). The pattern is read for syntax only;
 * use `parsePattern` to check it against the operation catalogue.
 *
 * @param url An absolute http(s) URL.
 * @param options `{ isCustomDomain: true }` for URLs on a custom domain (no cloud name).
 * @throws {InvalidUrlError} 'Invalid Tessera url…' when the URL fits no shape, or 'Error
 *   Processing url…' when its pattern cannot be read.
 * @throws {IllegalQueryParameterError} for a bad `dpr` or `f_auto`.
 * @example
 * urlToObj('https://cdn.example.com/v2/demo/t.resize(w:300)/a.jpg?dpr=2')
 * // { baseUrl: 'https://cdn.example.com', version: 'v2', cloudName: 'demo', zone: undefined,
 * //   pattern: 't.resize(w:300)', filePath: 'a.jpg', worker: false, workerPath: '',
 * //   isCustomDomain: false, options: { dpr: 2 },
 * //   transformations: [{ plugin: 't', name: 'resize', values: [{ key: 'w', value: '300' }] }] }
 */
export function urlToObj(url: string, options: ParseUrlOptions = {}): UrlObject {
  if (typeof url !== 'string') throw invalidUrl()
  const isCustomDomain =
    typeof options === 'object' && options !== null && options.isCustomDomain === true
  const plain = splitPlainUrl(url)
  const parts = plain ?? splitUrl(url)
  // A plain URL holds its path as it is, from `protocol//host` on: it is read there.
  const pathStart = plain ? plain.protocol.length + 2 + plain.host.length : 0
  const path = plain
    ? readDeliveryPath(
        url,
        pathStart,
        url.charCodeAt(pathStart) === SLASH ? pathStart + plain.pathname.length : pathStart,
        isCustomDomain,
      )
    : readDeliveryPath(parts.pathname, 0, parts.pathname.length, isCustomDomain)
  // Read as Pixelbin's SDK reads it (a repeated option: the last wins); delivery is stricter.
  const query = parseQueryOptions(parts.search, LAST_WINS)
  let transformations: Transformation[]
  try {
    transformations =
      path.pattern === ''
        ? []
        : ((plain && readInPlace(url, path.pattern)) ?? parseTransformations(path.pattern))
  } catch (error) {
    const closed = closeLastOperation(path.pattern)
    if (closed === undefined) {
      throw new InvalidUrlError(MESSAGES.errorProcessingUrl, { cause: (error as UrlError).cause })
    }
    transformations = closed
  }
  return {
    baseUrl: `${parts.protocol}//${parts.host}`,
    version: path.version,
    cloudName: path.cloudName,
    zone: path.zone,
    pattern: path.pattern,
    filePath: path.filePath,
    worker: path.worker,
    workerPath: path.workerPath,
    isCustomDomain,
    options: query,
    transformations,
  }
}

const LAST_WINS = { lastWins: true } as const

/**
 * `@pixelbin/core` reads a pattern whose last operation lacks its closing parenthesis just
 * before the file path (`…~p:preset1(a:12/a.jpg`) as if it were closed, and its own published
 * tests expect that, so we read it the same way. Only that case: the open parenthesis must be
 * the pattern's last one and hold plain `key:value` pairs (no `~` or brackets after it), so a
 * missing `)` in the middle of a pattern, or text after one, is still refused (decision 001).
 */
function closeLastOperation(pattern: string): Transformation[] | undefined {
  const open = pattern.lastIndexOf('(')
  if (open === -1) return undefined
  for (let i = open + 1; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i)
    // ( ) [ ] ~
    if (code === 40 || code === 41 || code === 91 || code === 93 || code === 126) return undefined
  }
  try {
    return parseTransformations(`${pattern})`)
  } catch {
    return undefined
  }
}

// Reads the pattern where it stands in a plain URL (which holds the path as it is): the URL is
// a flat string, which reads faster than a slice of it. Undefined when the one-pass reader
// declines; parseTransformations then reads the pattern (and throws for a bad one).
function readInPlace(url: string, pattern: string): Transformation[] | undefined {
  if (pattern === ORIGINAL_PATTERN) return []
  return readTransformations(url, patternAt, patternAt + pattern.length)
}

function trimTrailingSlashes(text: string): string {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 47) end--
  return text.slice(0, end)
}

function readZone(zone: unknown): string | undefined {
  if (zone === undefined || zone === null || zone === '' || zone === 'default') return undefined
  if (typeof zone === 'string' && isSlug(zone)) return zone
  throw new IllegalArgumentError(MESSAGES.zoneInvalid)
}

/**
 * Builds a delivery URL from its object form. The pattern is always written from
 * `transformations` (`original` when there are none, `wrkr` for workers); the version defaults
 * to v2; `dpr` comes before `f_auto` in the query. The input is not modified.
 *
 * @throws {IllegalArgumentError} for a missing cloudName, filePath or workerPath, a cloudName on
 *   a custom domain, a bad zone, or a transformation without key or value.
 * @throws {IllegalQueryParameterError} for a bad `dpr` or `f_auto`.
 * @example
 * objToUrl({ baseUrl: 'https://cdn.example.com', cloudName: 'demo', filePath: 'a.jpg',
 *   transformations: [{ plugin: 't', name: 'flip' }] })
 * // 'https://cdn.example.com/v2/demo/t.flip()/a.jpg'
 */
export function objToUrl(obj: UrlObjectInput): string {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new IllegalArgumentError(
      MESSAGES.objectExpected(`the URL object, got ${describeType(obj)}`),
    )
  }
  const isCustomDomain = obj.isCustomDomain === true
  const cloudName = obj.cloudName
  if (!isCustomDomain && !cloudName) throw new IllegalArgumentError(MESSAGES.cloudNameRequired)
  if (isCustomDomain && cloudName) throw new IllegalArgumentError(MESSAGES.cloudNameOnCustomDomain)
  if (!isCustomDomain && (typeof cloudName !== 'string' || !isName(cloudName))) {
    throw new IllegalArgumentError(MESSAGES.cloudNameRequired)
  }
  const isWorker = obj.worker === true
  if (!isWorker && (typeof obj.filePath !== 'string' || obj.filePath === '')) {
    throw new IllegalArgumentError(MESSAGES.filePathRequired)
  }
  if (isWorker && typeof obj.workerPath !== 'string') {
    throw new IllegalArgumentError(MESSAGES.workerPathRequired)
  }
  const patternPart = isWorker ? WORKER_SEGMENT : buildPatternSegment(obj.transformations)
  const version = isVersion(obj.version ?? undefined) ? obj.version : DEFAULT_VERSION
  const zone = readZone(obj.zone)
  const given = obj.baseUrl
  const baseUrl =
    typeof given !== 'string' || given === ''
      ? DEFAULT_BASE_URL
      : given.charCodeAt(given.length - 1) === SLASH
        ? trimTrailingSlashes(given)
        : given

  // Short parts are joined first (a join under 13 characters is one flat string, not a rope
  // node), so the result is read back with less work: '/v2/demo/', then the rest.
  let head = version === 'v1' ? '/v1/' : '/v2/'
  if (!isCustomDomain) head += `${cloudName as string}/`
  if (zone !== undefined) head += `${zone}/`
  // An empty worker path still ends in a slash, so the URL reads back as a worker URL.
  const path = isWorker ? (obj.workerPath as string) : (obj.filePath as string)
  const url = baseUrl + head + patternPart + path
  const options = obj.options
  return options ? url + buildQueryOptions(options) : url
}
