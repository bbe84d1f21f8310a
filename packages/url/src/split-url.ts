import { isDigitCode, isPlainHostCode } from './chars.ts'
import { InvalidUrlError, MESSAGES } from './errors.ts'

/** The parts of an absolute http(s) URL, as the WHATWG URL parser reports them. */
export interface UrlParts {
  protocol: 'http:' | 'https:'
  host: string
  pathname: string
  search: string
}

/**
 * Splits an absolute http(s) URL into protocol, host, pathname and search, with the same result
 * as `new URL()`. Plain URLs (lower-case host, ASCII path with nothing the WHATWG parser would
 * rewrite) take a single scan; anything else falls back to `new URL()`, so the answer is always
 * the standard one.
 */
export function splitUrl(url: string): UrlParts {
  const parts = splitPlainUrl(url)
  if (parts !== undefined) return parts
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch (error) {
    throw new InvalidUrlError(MESSAGES.invalidUrl, { cause: error })
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidUrlError(MESSAGES.invalidUrl)
  }
  return {
    protocol: parsed.protocol,
    host: parsed.host,
    pathname: parsed.pathname,
    search: parsed.search,
  }
}

const SLASH = 47
const QUESTION = 63
const HASH = 35
const COLON = 58
const DOT = 46

/** Returns the parts when `url` is plain enough to split without the WHATWG parser. */
function splitPlainUrl(url: string): UrlParts | undefined {
  let protocol: UrlParts['protocol']
  let index: number
  if (url.startsWith('https://')) {
    protocol = 'https:'
    index = 8
  } else if (url.startsWith('http://')) {
    protocol = 'http:'
    index = 7
  } else return undefined

  const hostStart = index
  let lastDot = index - 1
  let labelStart = index
  let portStart = -1
  for (; index < url.length; index++) {
    const code = url.charCodeAt(index)
    if (code === SLASH || code === QUESTION || code === HASH) break
    if (portStart >= 0) {
      if (!isDigitCode(code)) return undefined
    } else if (code === COLON) {
      portStart = index + 1
    } else if (code === DOT) {
      if (index === labelStart) return undefined
      lastDot = index
      labelStart = index + 1
    } else if (!isPlainHostCode(code)) return undefined
  }
  const hostEnd = portStart >= 0 ? portStart - 1 : index
  if (hostEnd === hostStart || hostEnd === labelStart) return undefined
  // A host whose last label is numeric or hex is an IPv4 address the parser may rewrite.
  const labelCode = url.charCodeAt(lastDot + 1)
  if (isDigitCode(labelCode)) return undefined
  // A punycode label (`xn--`) is checked by the parser: searched backwards, within the host only.
  if (hostEnd - hostStart >= 4 && url.lastIndexOf('xn--', hostEnd - 4) >= hostStart)
    return undefined
  if (portStart >= 0) {
    const port = url.slice(portStart, index)
    if (port.length === 0 || port.length > 5 || (port.length > 1 && port.startsWith('0'))) {
      return undefined
    }
    if (Number(port) > 65535) return undefined
    if ((protocol === 'https:' && port === '443') || (protocol === 'http:' && port === '80')) {
      return undefined
    }
  }
  const host = url.slice(hostStart, index)

  // The rest is read in three tight scans (path, query, fragment): anything the WHATWG parser
  // would rewrite sends the URL to it.
  const length = url.length
  const pathStart = index
  for (; index < length; index++) {
    const code = url.charCodeAt(index)
    if (code > 126) return undefined
    const kind = KINDS[code] as number
    if (kind === 0) continue
    if ((kind & (NOT_PRINTABLE | IN_PATH)) !== 0) return undefined
    if (code === SLASH) {
      if (isDotSegment(url, index, length)) return undefined
    } else if (code === PERCENT) {
      if (isEncodedDot(url, index)) return undefined
    } else if (code === QUESTION || code === HASH) break
  }
  const pathname = index === pathStart ? '/' : url.slice(pathStart, index)
  let search = ''
  if (url.charCodeAt(index) === QUESTION) {
    const query = index
    for (index++; index < length; index++) {
      const code = url.charCodeAt(index)
      if (code > 126) return undefined
      const kind = KINDS[code] as number
      if (kind === 0) continue
      if ((kind & (NOT_PRINTABLE | IN_QUERY)) !== 0) return undefined
      if (code === HASH) break
    }
    if (index - query > 1) search = url.slice(query, index)
  }
  // The fragment is dropped, but the parser strips or encodes what is not printable in it too.
  for (; index < length; index++) {
    const code = url.charCodeAt(index)
    if (code < 0x21 || code > 0x7e) return undefined
  }
  return { protocol, host, pathname, search }
}

const PERCENT = 37
// Printable characters the parser percent-encodes in a path (or reads as a slash), and those it
// percent-encodes in the query of an http(s) URL; `/`, `%`, `?` and `#` are looked at too.
const IN_PATH = 1
const IN_QUERY = 2
const OTHER = 4
// Control characters and the space, which the parser strips, trims or encodes.
const NOT_PRINTABLE = 8
const KINDS = new Uint8Array(128).fill(NOT_PRINTABLE, 0, 0x21)
const mark = (chars: string, kind: number) => {
  for (const char of chars) {
    const code = char.charCodeAt(0)
    KINDS[code] = (KINDS[code] as number) | kind
  }
}
mark('"<>`{}\\', IN_PATH)
mark(`"<>'`, IN_QUERY)
mark('/%?#', OTHER)
KINDS[0x7f] = NOT_PRINTABLE

// A `.` or `..` segment after the slash at `at` (the path ends at `?`, `#` or the end).
function isDotSegment(url: string, at: number, length: number): boolean {
  if (url.charCodeAt(at + 1) !== DOT) return false
  const after = at + 2 < length ? url.charCodeAt(at + 2) : SLASH
  if (after === SLASH || after === QUESTION || after === HASH) return true
  if (after !== DOT) return false
  const next = at + 3 < length ? url.charCodeAt(at + 3) : SLASH
  return next === SLASH || next === QUESTION || next === HASH
}

// `%2e` or `%2E`: a percent-encoded dot, which the parser may resolve away.
function isEncodedDot(url: string, at: number): boolean {
  const last = url.charCodeAt(at + 2)
  return url.charCodeAt(at + 1) === 50 && (last === 101 || last === 69)
}
