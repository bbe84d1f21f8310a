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
const LOWER_X = 120

/**
 * Returns the parts when `url` is plain enough to split without the WHATWG parser; the pathname
 * is then `url` from `protocol//host` on, as it is. Internal: `splitUrl` is the public API.
 */
export function splitPlainUrl(url: string): UrlParts | undefined {
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
    // A punycode label (`xn--`) is checked by the parser.
    else if (code === LOWER_X && index === labelStart && url.startsWith('xn--', index)) {
      return undefined
    }
  }
  const hostEnd = portStart >= 0 ? portStart - 1 : index
  if (hostEnd === hostStart || hostEnd === labelStart) return undefined
  // A host whose last label is numeric or hex is an IPv4 address the parser may rewrite.
  const labelCode = url.charCodeAt(lastDot + 1)
  if (isDigitCode(labelCode)) return undefined
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

  // The rest is checked with native scans (each regex a plain alternation, no backtracking):
  // anything the WHATWG parser would rewrite sends the URL to it.
  const pathStart = index
  if (NOT_PRINTABLE.test(url)) return undefined
  let pathEnd = url.indexOf('?', pathStart)
  const fragment = url.indexOf('#', pathStart)
  if (pathEnd === -1 || (fragment !== -1 && fragment < pathEnd)) {
    pathEnd = fragment === -1 ? url.length : fragment
  }
  if (foundBefore(REWRITTEN_IN_PATH, url, pathStart, pathEnd)) return undefined
  const pathname = pathEnd === pathStart ? '/' : url.slice(pathStart, pathEnd)
  let search = ''
  if (url.charCodeAt(pathEnd) === QUESTION) {
    const searchEnd = fragment === -1 ? url.length : fragment
    if (foundBefore(REWRITTEN_IN_QUERY, url, pathEnd, searchEnd)) return undefined
    if (searchEnd - pathEnd > 1) search = url.slice(pathEnd, searchEnd)
  }
  return { protocol, host, pathname, search }
}

// Anything but printable ASCII: the parser strips, trims or encodes it (anywhere, even in the
// fragment).
const NOT_PRINTABLE = /[^\x21-\x7e]/
// What the parser rewrites in a path: characters it percent-encodes or reads as a slash, a
// percent-encoded dot, and a `.` or `..` segment (ended by `/`, `?`, `#` or the end).
const REWRITTEN_IN_PATH = /["<>`{}\\]|%2[eE]|\/\.\.?(?=[/?#]|$)/g
// Printable characters the parser percent-encodes in the query of an http(s) URL.
const REWRITTEN_IN_QUERY = /["<>']/g

// Whether `pattern` matches in `text` at or after `start`, starting before `end`.
function foundBefore(pattern: RegExp, text: string, start: number, end: number): boolean {
  pattern.lastIndex = start
  const match = pattern.exec(text)
  return match !== null && match.index < end
}
