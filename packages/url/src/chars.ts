// Character tests by char code: the parsers scan strings once, with no regular expressions,
// so every input is read in linear time.

/** A-Z, a-z, 0-9, `_` or `-`: the alphabet of cloud names, slugs, plugin and param names. */
export function isNameCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45
  )
}

/** Returns true when every character of `text` is a name character (and there is one). */
export function isName(text: string): boolean {
  if (text.length === 0) return false
  for (let i = 0; i < text.length; i++) {
    if (!isNameCode(text.charCodeAt(i))) return false
  }
  return true
}

export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57
}

export function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70)
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
    else if (code === 46 && !dot) {
      dot = true
      if (digits === 0 && i + 1 >= text.length) return false
    } else return false
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
