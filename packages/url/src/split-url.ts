import { isDigitCode } from './chars.ts'
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

// Path characters the WHATWG parser leaves as they are (printable ASCII minus the path
// percent-encode set and the backslash, which special schemes read as a slash).
function isPlainPathCode(code: number): boolean {
  return (
    code > 32 &&
    code < 127 &&
    code !== 34 && // "
    code !== 60 && // <
    code !== 62 && // >
    code !== 96 && // `
    code !== 123 && // {
    code !== 125 && // }
    code !== 92 // \
  )
}

// Query characters left as they are in special schemes (the special-query set adds ').
function isPlainQueryCode(code: number): boolean {
  return code > 32 && code < 127 && code !== 34 && code !== 60 && code !== 62 && code !== 39
}

function isPlainHostCode(code: number): boolean {
  return (code >= 97 && code <= 122) || isDigitCode(code) || code === 45 || code === DOT
}

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
  const lastLabel = url.slice(lastDot + 1, hostEnd)
  if (isDigitCode(lastLabel.charCodeAt(0)) || lastLabel.startsWith('0x')) return undefined
  if (url.slice(hostStart, hostEnd).includes('xn--')) return undefined
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

  const pathStart = index
  let segmentStart = index + 1
  for (; index < url.length; index++) {
    const code = url.charCodeAt(index)
    if (code === QUESTION || code === HASH) break
    if (code === SLASH) {
      if (index > pathStart && isDotSegment(url, segmentStart, index)) return undefined
      segmentStart = index + 1
    } else if (!isPlainPathCode(code)) return undefined
  }
  if (index > pathStart && isDotSegment(url, segmentStart, index)) return undefined
  const pathname = index === pathStart ? '/' : url.slice(pathStart, index)

  let search = ''
  if (url.charCodeAt(index) === QUESTION) {
    const searchStart = index
    for (index++; index < url.length; index++) {
      const code = url.charCodeAt(index)
      if (code === HASH) break
      if (!isPlainQueryCode(code)) return undefined
    }
    if (index - searchStart > 1) search = url.slice(searchStart, index)
  }
  // The fragment is dropped, but the WHATWG parser strips tabs and newlines anywhere in the
  // input, so such an input must take the slow path to keep both answers equal.
  for (; index < url.length; index++) {
    const code = url.charCodeAt(index)
    if (code <= 32 || code >= 127) return undefined
  }
  return { protocol, host, pathname, search }
}

// `.`, `..` and their percent-encoded spellings are resolved away by the WHATWG parser.
function isDotSegment(url: string, start: number, end: number): boolean {
  const length = end - start
  if (length === 0 || length > 6) return false
  const segment = url.slice(start, end).toLowerCase()
  return (
    segment === '.' ||
    segment === '..' ||
    segment === '%2e' ||
    segment === '.%2e' ||
    segment === '%2e.' ||
    segment === '%2e%2e'
  )
}
