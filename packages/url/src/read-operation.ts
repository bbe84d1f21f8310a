// The pattern reader's inner loop, on index ranges of the pattern itself: an operation's text is
// never cut out of the pattern, and only the final names and values are sliced. `pattern.ts`
// wraps it in the public parsers.
import { isNameCode, isNameRange } from './chars.ts'
import { PRESET_PLUGIN } from './constants.ts'
import { MESSAGES } from './errors.ts'
import type { Transformation, TransformationValue } from './pattern.ts'

const OPEN_PAREN = 40
const CLOSE_PAREN = 41
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const TILDE = 126
const COMMA = 44
const COLON = 58
const DOT = 46
const LOWER_P = 112

// Above this many parameters, repeated keys are found through a Map rather than a scan.
const LINEAR_KEY_SEARCH = 8

/** What `readOperation` found besides the operation: the first key given more than once. */
export const lastRead: { repeated: string | undefined } = { repeated: undefined }

/**
 * Reads the operation `text[start, end)` without consulting the catalogue: the operation, or
 * the reason it cannot be read. The first repeated key is left in `lastRead.repeated` (a
 * repeated key keeps its first position and takes the last value, as query strings do).
 */
export function readOperation(text: string, start: number, end: number): Transformation | string {
  lastRead.repeated = undefined
  if (end === start) return 'empty operation'
  let open = text.indexOf('(', start)
  if (open >= end) open = -1
  const isPreset = end - start >= 2 && text.startsWith('p:', start)
  if (open === -1) {
    if (!isPreset) return 'missing parentheses'
    if (!isNameRange(text, start + 2, end)) return 'invalid preset name'
    return { plugin: PRESET_PLUGIN, name: text.slice(start + 2, end) }
  }
  const close = end - 1
  if (text.charCodeAt(close) !== CLOSE_PAREN) return 'missing closing parenthesis or text after it'
  let plugin: string
  let name: string
  if (isPreset) {
    if (!isNameRange(text, start + 2, open)) return 'invalid preset name'
    plugin = PRESET_PLUGIN
    name = text.slice(start + 2, open)
  } else {
    const dot = text.indexOf('.', start)
    if (dot === -1 || dot > open) return 'missing plugin or operation name'
    if (!isNameRange(text, start, dot) || !isNameRange(text, dot + 1, open)) {
      return 'invalid plugin or operation name'
    }
    plugin = text.slice(start, dot)
    name = text.slice(dot + 1, open)
  }
  if (open + 1 === close) return { plugin, name }

  // One scan over the parameters: items end at a top-level comma or at the closing parenthesis.
  const values: TransformationValue[] = []
  let positions: Map<string, number> | undefined
  let repeated: string | undefined
  let depth = 0
  let itemStart = open + 1
  let colon = -1
  for (let i = itemStart; i <= close; i++) {
    const atEnd = i === close
    const code = atEnd ? COMMA : text.charCodeAt(i)
    if (code === COMMA && depth === 0) {
      const keyEnd = colon === -1 ? i : colon
      if (!isNameRange(text, itemStart, keyEnd)) return MESSAGES.keyMissing(`${plugin}.${name}`)
      const key = text.slice(itemStart, keyEnd)
      if (colon === -1 || colon + 1 === i) return MESSAGES.valueMissing(key, `${plugin}.${name}`)
      const pair = { key, value: text.slice(colon + 1, i) }
      let at = -1
      if (positions !== undefined) at = positions.get(key) ?? -1
      else {
        for (let j = 0; j < values.length; j++) {
          if ((values[j] as TransformationValue).key === key) at = j
        }
      }
      if (at !== -1) {
        values[at] = pair
        repeated ??= key
      } else {
        if (positions === undefined && values.length >= LINEAR_KEY_SEARCH) {
          positions = new Map(values.map((value, index) => [value.key, index]))
        }
        positions?.set(key, values.length)
        values.push(pair)
      }
      itemStart = i + 1
      colon = -1
    } else if (atEnd) return 'unbalanced brackets'
    else if (code === COLON) {
      if (colon === -1) colon = i
    } else if (code === OPEN_PAREN || code === OPEN_BRACKET) depth++
    else if (code === CLOSE_PAREN || code === CLOSE_BRACKET) {
      if (--depth < 0) return 'unbalanced brackets'
    }
  }
  lastRead.repeated = repeated
  return { plugin, name, values }
}

/**
 * Reads a whole pattern in one scan over its characters, for the well-formed case only:
 * `plugin.name(key:value,…)` and `p:name[(…)]` joined by `~`, names checked as they are passed
 * and only the final names, keys and values sliced. Returns undefined for anything else (an
 * empty operation, a bad name, unbalanced brackets, text after `)`), and the caller then takes
 * the two-step path (`splitOperations` + `parseOperationSyntax`), which reads such patterns and
 * names the failing operation as it always has. Where both succeed they agree: an operation
 * accepted here ends at a top-level `~`, so it is the same text the split gives.
 */
export function readTransformations(
  text: string,
  from = 0,
  end = text.length,
): Transformation[] | undefined {
  // The pattern is `text[from, end)`: urlToObj passes the whole URL, which reads faster than a
  // slice of it (every character of a sliced string is reached through its parent).
  const list: Transformation[] = []
  let i = from
  for (;;) {
    const start = i
    let plugin: string
    let name: string
    let code: number
    if (i + 1 < end && text.charCodeAt(i) === LOWER_P && text.charCodeAt(i + 1) === COLON) {
      i = nameEnd(text, i + 2, end)
      if (i === start + 2) return undefined
      plugin = PRESET_PLUGIN
      name = text.slice(start + 2, i)
      if (i === end) {
        list.push({ plugin, name })
        return list
      }
      code = text.charCodeAt(i)
      if (code === TILDE) {
        list.push({ plugin, name })
        i++
        continue
      }
    } else {
      i = nameEnd(text, i, end)
      if (i === start || i === end || text.charCodeAt(i) !== DOT) return undefined
      const dot = i
      i = nameEnd(text, dot + 1, end)
      if (i === dot + 1 || i === end) return undefined
      code = text.charCodeAt(i)
      plugin = text.slice(start, dot)
      name = text.slice(dot + 1, i)
    }
    if (code !== OPEN_PAREN) return undefined
    i++
    if (i < end && text.charCodeAt(i) === CLOSE_PAREN) {
      list.push({ plugin, name })
      i++
    } else {
      const values = readValues(text, i, end)
      if (values === undefined) return undefined
      list.push({ plugin, name, values })
      i = valuesEnd
    }
    if (i === end) return list
    if (text.charCodeAt(i) !== TILDE) return undefined
    i++
  }
}

// The end of the run of name characters from `at` (at most `end`).
function nameEnd(text: string, at: number, end: number): number {
  let i = at
  while (i < end && isNameCode(text.charCodeAt(i))) i++
  return i
}

// Where `readValues` stopped: just after the operation's closing parenthesis.
let valuesEnd = 0

// Reads `key:value,…)` from `at`; values may hold balanced brackets and any other character.
function readValues(text: string, at: number, end: number): TransformationValue[] | undefined {
  const values: TransformationValue[] = []
  let positions: Map<string, number> | undefined
  let i = at
  for (;;) {
    const keyStart = i
    i = nameEnd(text, i, end)
    if (i === keyStart || i === end || text.charCodeAt(i) !== COLON) return undefined
    const key = text.slice(keyStart, i)
    const valueStart = ++i
    let depth = 0
    let code = 0
    for (; i < end; i++) {
      code = text.charCodeAt(i)
      if (code === OPEN_PAREN || code === OPEN_BRACKET) depth++
      else if (code === CLOSE_PAREN || code === CLOSE_BRACKET) {
        if (depth === 0 && code === CLOSE_PAREN) break
        if (--depth < 0) return undefined
      } else if (code === COMMA && depth === 0) break
    }
    if (i === end || i === valueStart) return undefined
    const pair = { key, value: text.slice(valueStart, i) }
    // As in readOperation: a repeated key keeps its first position and takes the last value.
    let found = -1
    if (positions !== undefined) found = positions.get(key) ?? -1
    else {
      for (let j = 0; j < values.length; j++) {
        if ((values[j] as TransformationValue).key === key) found = j
      }
    }
    if (found !== -1) values[found] = pair
    else {
      if (positions === undefined && values.length >= LINEAR_KEY_SEARCH) {
        positions = new Map(values.map((value, index) => [value.key, index]))
      }
      positions?.set(key, values.length)
      values.push(pair)
    }
    i++
    if (code === CLOSE_PAREN) {
      valuesEnd = i
      return values
    }
  }
}
