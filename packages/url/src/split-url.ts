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
  const punycode = url.indexOf('xn--', hostStart)
  if (punycode !== -1 && punycode < hostEnd) return undefined
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

  // The rest is checked with native scans: each regex is one character class (no backtracking).
  if (NOT_PRINTABLE.test(url)) return undefined
  const pathStart = index
  const query = url.indexOf('?', pathStart)
  const fragment = url.indexOf('#', pathStart)
  const pathEnd = firstOf(firstOf(url.length, query), fragment)
  if (foundBefore(REWRITTEN_IN_PATH, url, pathStart, pathEnd)) return undefined
  if (hasDotSegment(url, pathStart, pathEnd)) return undefined
  const pathname = pathEnd === pathStart ? '/' : url.slice(pathStart, pathEnd)

  let search = ''
  if (pathEnd === query) {
    const searchEnd = fragment > query ? fragment : url.length
    if (foundBefore(REWRITTEN_IN_QUERY, url, query, searchEnd)) return undefined
    if (searchEnd - query > 1) search = url.slice(query, searchEnd)
  }
  return { protocol, host, pathname, search }
}

// Anything but printable ASCII: the WHATWG parser strips, trims or encodes it (anywhere, even
// in the fragment), so such an input takes the slow path.
const NOT_PRINTABLE = /[^\x21-\x7e]/
// Printable characters the parser percent-encodes in a path, or reads as a slash.
const REWRITTEN_IN_PATH = /["<>`{}\\]/g
// Printable characters the parser percent-encodes in the query of an http(s) URL.
const REWRITTEN_IN_QUERY = /["<>']/g

function firstOf(a: number, b: number): number {
  return b !== -1 && b < a ? b : a
}

function foundBefore(pattern: RegExp, text: string, start: number, end: number): boolean {
  pattern.lastIndex = start
  return pattern.test(text) && pattern.lastIndex <= end
}

// A `.`/`..` segment, or any percent-encoded dot, is resolved away by the parser.
function hasDotSegment(url: string, start: number, end: number): boolean {
  const lower = url.indexOf('%2e', start)
  const upper = url.indexOf('%2E', start)
  if ((lower !== -1 && lower < end) || (upper !== -1 && upper < end)) return true
  for (let at = url.indexOf('/.', start); at !== -1 && at < end; at = url.indexOf('/.', at + 1)) {
    const after = url.charCodeAt(at + 2)
    const isDot =
      after === SLASH ||
      at + 2 >= end ||
      (after === DOT && (url.charCodeAt(at + 3) === SLASH || at + 3 >= end))
    if (isDot) return true
  }
  return false
}
