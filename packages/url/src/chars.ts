// Character tests by char code: the parsers scan strings once, with no backtracking, so every
// input is read in linear time. A table lookup per character keeps the scans cheap.

const NAME = 1
const HEX = 4
const PLAIN_HOST = 32
const PLAIN_VALUE = 64

const CLASSES = new Uint8Array(128)
CLASSES[32] = PLAIN_VALUE
for (let code = 33; code < 127; code++) {
  let flags = 0
  const isLower = code >= 97 && code <= 122
  const isUpper = code >= 65 && code <= 90
  const isDigit = code >= 48 && code <= 57
  if (isLower || isUpper || isDigit || code === 95 || code === 45) flags |= NAME
  // Value text that cannot change how a pattern splits: all but / ? # , ( ) [ ].
  if (!'/?#,()[]'.includes(String.fromCharCode(code))) flags |= PLAIN_VALUE
  if (isDigit || (code >= 97 && code <= 102) || (code >= 65 && code <= 70)) flags |= HEX
  if (isLower || isDigit || code === 45 || code === 46) flags |= PLAIN_HOST
  CLASSES[code] = flags
}

function has(code: number, flag: number): boolean {
  return code < 128 && ((CLASSES[code] as number) & flag) !== 0
}

/** A-Z, a-z, 0-9, `_` or `-`: the alphabet of cloud names, slugs, plugin and param names. */
export function isNameCode(code: number): boolean {
  return has(code, NAME)
}

export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57
}

export function isHexCode(code: number): boolean {
  return has(code, HEX)
}

/** Value characters with no meaning in a pattern (any non-ASCII character is one). */
export function isPlainValueCode(code: number): boolean {
  return code >= 128 || ((CLASSES[code] as number) & PLAIN_VALUE) !== 0
}

/** Lower-case letters, digits, `-` and `.`: hosts the WHATWG parser leaves unchanged. */
export function isPlainHostCode(code: number): boolean {
  return has(code, PLAIN_HOST)
}

/** Returns true when `text[start, end)` is one or more name characters. */
export function isNameRange(text: string, start: number, end: number): boolean {
  if (end <= start) return false
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code >= 128 || ((CLASSES[code] as number) & NAME) === 0) return false
  }
  return true
}

/** Returns true when every character of `text` is a name character (and there is one). */
export function isName(text: string): boolean {
  return isNameRange(text, 0, text.length)
}

/** Optional `-`, then one or more digits. */
export function isIntegerText(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0
  if (i >= text.length) return false
  for (; i < text.length; i++) {
    if (!isDigitCode(text.charCodeAt(i))) return false
  }
  return true
}

/** Optional `-`, digits with an optional fraction, or a bare fraction (`.5`). No exponents. */
export function isDecimalText(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0
  let digits = 0
  let dot = false
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (isDigitCode(code)) digits++
    else if (code === 46 && !dot) dot = true
    else return false
  }
  return digits > 0 && text.charCodeAt(text.length - 1) !== 46
}

/** Returns true for 6 or 8 hex digits. */
export function isHexColorText(text: string): boolean {
  if (text.length !== 6 && text.length !== 8) return false
  for (let i = 0; i < text.length; i++) {
    if (!isHexCode(text.charCodeAt(i))) return false
  }
  return true
}
