// Writing operations as pattern text. Operations of the catalogue are written from pieces made
// once at module load (`t.resize(`, `,w:`), so a URL is built from fewer, longer strings: each
// concatenation and each piece the result is later flattened from costs time (issue 14). Names
// found in those tables are known to be valid; any other name is checked character by character.
import { CATALOGUE } from './catalogue.ts'
import { isName, isPlainValueCode } from './chars.ts'
import { LIST_SEPARATOR, PRESET_PLUGIN } from './constants.ts'
import { describeType, IllegalArgumentError, MESSAGES } from './errors.ts'
import type { TransformationInput } from './pattern.ts'

const OPEN_PAREN = 40
const CLOSE_PAREN = 41
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const COMMA = 44

/** The fixed text of one catalogue operation, with and without the `~` before it. */
interface OperationPieces {
  plugin: string
  sameName: OperationPieces | undefined
  /** `t.resize(` and `~t.resize(`. */
  open: string
  openAfter: string
  /** `t.flip()` and `~t.flip()`, for an operation written without values. */
  empty: string
  emptyAfter: string
  /** For each parameter key: `w:` (the first value) and `,w:` (the others). */
  keys: ReadonlyMap<string, { first: string; next: string }>
}

const PIECES = new Map<string, OperationPieces>()
for (const plugin of CATALOGUE.plugins) {
  if (plugin.id === PRESET_PLUGIN || !isName(plugin.id)) continue
  for (const operation of plugin.operations) {
    if (!isName(operation.method)) continue
    const open = `${plugin.id}.${operation.method}(`
    const keys = new Map<string, { first: string; next: string }>()
    for (const param of operation.params) {
      if (isName(param.id)) keys.set(param.id, { first: `${param.id}:`, next: `,${param.id}:` })
    }
    const made: OperationPieces = {
      plugin: plugin.id,
      sameName: undefined,
      open,
      openAfter: `~${open}`,
      empty: `${open})`,
      emptyAfter: `~${open})`,
      keys,
    }
    const first = PIECES.get(operation.method)
    if (first === undefined) PIECES.set(operation.method, made)
    else {
      let last = first
      while (last.sameName !== undefined) last = last.sameName
      last.sameName = made
    }
  }
}

function findPieces(plugin: string, name: string): OperationPieces | undefined {
  let pieces = PIECES.get(name)
  while (pieces !== undefined && pieces.plugin !== plugin) pieces = pieces.sameName
  return pieces
}

// Lists in the catalogue nest 3 deep (polygon lists); deeper input is refused, not recursed.
const MAX_LIST_DEPTH = 8

/** Writes a list value with `_` between items: `[[1,2,3,4]]` → `[[1_2_3_4]]`. */
function writeList(list: readonly unknown[], key: string, name: string, depth = 0): string {
  if (depth >= MAX_LIST_DEPTH) throw new IllegalArgumentError(MESSAGES.valueUnsafe(key, name))
  const items = list.map((item) => {
    if (Array.isArray(item)) return writeList(item, key, name, depth + 1)
    if (typeof item === 'number' && Number.isFinite(item)) return String(item)
    if (typeof item === 'string' || typeof item === 'boolean') return String(item)
    throw new IllegalArgumentError(MESSAGES.valueUnsafe(key, name))
  })
  return `[${items.join(LIST_SEPARATOR)}]`
}

// A value is safe when writing it cannot change how the pattern splits or where the path ends.
// A top-level `~` is fine: the value sits inside its operation's parentheses.
function isSafeValue(value: string): boolean {
  let depth = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (isPlainValueCode(code)) continue
    if (code === OPEN_PAREN || code === OPEN_BRACKET) depth++
    else if (code === CLOSE_PAREN || code === CLOSE_BRACKET) {
      if (--depth < 0) return false
    } else if (code !== COMMA || depth === 0) return false
  }
  return depth === 0
}

function writeValue(value: unknown, key: string, name: string): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : ''
  else if (typeof value === 'boolean') text = value ? 'true' : 'false'
  else if (Array.isArray(value)) text = writeList(value, key, name)
  else text = ''
  // Unlike older SDKs, numeric 0 is a value; empty text, null and undefined are not.
  if (text === '') throw new IllegalArgumentError(MESSAGES.valueMissing(key, name))
  if (!isSafeValue(text)) throw new IllegalArgumentError(MESSAGES.valueUnsafe(key, name))
  return text
}

/**
 * Writes one operation (`t.resize(w:300)`), with a `~` in front when `after` is set; undefined
 * for an entry without a name, which the SDKs this API is compatible with skip.
 *
 * @throws {IllegalArgumentError} for a bad entry, name, key or value.
 */
export function writeOperation(item: TransformationInput, after: boolean): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new IllegalArgumentError(MESSAGES.objectExpected('each transformation'))
  }
  const name = item.name
  if (name === undefined) return undefined
  if (typeof name !== 'string') {
    throw new IllegalArgumentError(MESSAGES.nameInvalid(describeType(name)))
  }
  const plugin = item.plugin
  if (typeof plugin !== 'string' || plugin === '') {
    throw new IllegalArgumentError(MESSAGES.pluginMissing(name))
  }
  const pieces = findPieces(plugin, name)
  if (pieces === undefined && (!isName(plugin) || !isName(name))) {
    throw new IllegalArgumentError(MESSAGES.nameInvalid(name))
  }
  const values = item.values ?? EMPTY
  if (!Array.isArray(values)) {
    throw new IllegalArgumentError(MESSAGES.arrayExpected('values', describeType(values)))
  }
  if (pieces === undefined) return writeOther(plugin, name, values, after)
  if (values.length === 0) return after ? pieces.emptyAfter : pieces.empty
  // The values are joined on their own and the operation's name put in front last: joins of
  // short strings are copied into one flat string, so the result is a shallower rope.
  let params = ''
  for (let i = 0; i < values.length; i++) {
    const key = readKey(values[i], name)
    const known = pieces.keys.get(key)
    if (known === undefined && !isName(key)) {
      throw new IllegalArgumentError(MESSAGES.nameInvalid(name))
    }
    const value = writeValue((values[i] as { value?: unknown }).value, key, name)
    if (known === undefined) params += i === 0 ? `${key}:${value}` : `,${key}:${value}`
    else if (i === 0) params = known.first + value
    else params += known.next + value
  }
  const rest = `${params})`
  return (after ? pieces.openAfter : pieces.open) + rest
}

function readKey(pair: unknown, name: string): string {
  if (typeof pair !== 'object' || pair === null) {
    throw new IllegalArgumentError(MESSAGES.keyMissing(name))
  }
  const key = (pair as { key?: unknown }).key
  if (typeof key !== 'string' || key === '') {
    throw new IllegalArgumentError(MESSAGES.keyMissing(name))
  }
  return key
}

// An operation outside the catalogue (or a preset), written piece by piece.
function writeOther(
  plugin: string,
  name: string,
  values: readonly unknown[],
  after: boolean,
): string {
  let params = ''
  let hasPresetName = false
  for (let i = 0; i < values.length; i++) {
    const key = readKey(values[i], name)
    if (!isName(key)) throw new IllegalArgumentError(MESSAGES.nameInvalid(name))
    if (key === 'n') hasPresetName = true
    const text = writeValue((values[i] as { value?: unknown }).value, key, name)
    params += i === 0 ? `${key}:${text}` : `,${key}:${text}`
  }
  let text: string
  if (plugin !== PRESET_PLUGIN) text = `${plugin}.${name}(${params})`
  else if (name === 'apply' && hasPresetName) text = `p.apply(${params})`
  else text = params === '' ? `p:${name}` : `p:${name}(${params})`
  return after ? `~${text}` : text
}

const EMPTY: readonly never[] = []
