// The catalogue generator's pure half: the research catalogue (plugins.json) plus the hand edits
// (catalogue-overrides.ts, and `runnable`/`slow`/`unavailableReason` carried over from the
// committed file) give the PLUGINS of src/catalogue-data.ts. generate-catalogue.ts writes it.
import type { ParamOverride } from './catalogue-overrides.ts'

interface Bounds {
  min?: number
  max?: number
  note?: string
  enum?: string[]
}
interface SourceParam {
  identifier: string
  sdkName: string
  title: string
  type: string
  default: unknown
  enum?: string[]
  required?: boolean
  api2022?: Bounds
  docs?: Bounds
}
interface SourceOperation {
  method: string
  /** Source formats the operation accepts (extensions say it here; see also `FORMATS`). */
  formats?: string[]
  displayName?: string
  description?: string
  params: SourceParam[]
}
export interface SourcePlugin {
  identifier: string
  sdkModule: string
  description: string
  operations: SourceOperation[]
}
export interface SourceCatalogue {
  plugins: SourcePlugin[]
}

/** What the committed file says of an operation that the generator keeps. */
export interface KeptOperation {
  runnable: boolean
  slow: boolean
  reason?: string
}

// Operations that only make sense for some source formats.
const FORMATS: Record<string, string[]> = {
  'vsr.upscale': ['mp4', 'mov', 'mkv', 'webm', 'avi', 'mpg', 'mpeg'],
  'wmv.remove': ['mp4', 'mov', 'mkv', 'webm', 'avi', 'mpg', 'mpeg'],
  'pwr.remove': ['pdf'],
  'pdf.page': ['pdf'],
}

function humanise(method: string): string {
  return method.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase())
}

function bound(param: SourceParam, which: 'min' | 'max'): number | undefined {
  const docs = param.docs
  // Pages that say larger values are scaled down describe a clamp, not a validation bound.
  if (docs?.[which] !== undefined && !docs.note?.includes('scaled down')) return docs[which]
  return param.api2022?.[which]
}

/**
 * `runnable`, `slow` and `unavailableReason` of every operation in the committed file, whether a
 * formatter kept a value on the key's line or wrapped it onto the next.
 */
export function readKept(text: string): Map<string, KeptOperation> {
  const kept = new Map<string, KeptOperation>()
  const quoted = `'((?:[^'\\\\]|\\\\.)*)'`
  const pattern = new RegExp(
    `key: '([^']+)',\\s+runnable: (true|false),\\s+slow: (true|false),(?:\\s+unavailableReason:\\s+${quoted},)?`,
    'g',
  )
  for (const match of text.matchAll(pattern)) {
    kept.set(match[1] as string, {
      runnable: match[2] === 'true',
      slow: match[3] === 'true',
      ...(match[4] === undefined ? {} : { reason: match[4].replaceAll("\\'", "'") }),
    })
  }
  return kept
}

/** The catalogue's plugins, hand edits applied; throws on an override that matches nothing. */
export function buildPlugins(
  source: SourceCatalogue,
  kept: ReadonlyMap<string, KeptOperation>,
  overrides: Readonly<Record<string, Readonly<Record<string, ParamOverride>>>>,
) {
  const used = new Set<string>()
  const plugins = source.plugins.map((plugin) => ({
    id: plugin.identifier,
    name: plugin.sdkModule,
    description: plugin.description,
    operations: plugin.operations.map((operation) => {
      const key = `${plugin.identifier}.${operation.method}`
      const previous = kept.get(key)
      return {
        plugin: plugin.identifier,
        method: operation.method,
        key,
        runnable: previous?.runnable ?? false,
        slow: previous?.slow ?? plugin.identifier !== 't',
        ...(previous?.reason === undefined ? {} : { unavailableReason: previous.reason }),
        displayName: operation.displayName ?? humanise(operation.method),
        description: operation.description ?? plugin.description,
        ...((FORMATS[key] ?? operation.formats)
          ? { formats: FORMATS[key] ?? operation.formats }
          : {}),
        params: operation.params.map((param) => {
          const min = bound(param, 'min')
          const max = bound(param, 'max')
          const override = overrides[key]?.[param.identifier]
          if (override !== undefined) used.add(`${key}.${param.identifier}`)
          const { why: _why, ...fields } = override ?? {}
          return {
            id: param.identifier,
            name: param.sdkName,
            title: param.title,
            type: param.type === 'custom' ? 'string' : param.type,
            default: param.default ?? null,
            required: param.required === true,
            ...(param.enum ? { enum: param.enum } : {}),
            ...(min !== undefined ? { min } : {}),
            ...(max !== undefined ? { max } : {}),
            ...fields,
          }
        }),
      }
    }),
  }))
  const unused = Object.entries(overrides)
    .flatMap(([key, params]) => Object.keys(params).map((id) => `${key}.${id}`))
    .filter((name) => !used.has(name))
  if (unused.length > 0) throw new Error(`overrides match no parameter: ${unused.join(', ')}`)
  return plugins
}

function literal(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item !== 'object' || item === null)) {
      return `[${value.map((item) => literal(item, '')).join(', ')}]`
    }
    const inner = `${indent}  `
    return `[\n${value.map((item) => `${inner}${literal(item, inner)},`).join('\n')}\n${indent}]`
  }
  if (typeof value === 'object' && value !== null) {
    const inner = `${indent}  `
    const lines = Object.entries(value).map(
      ([k, v]) => `${inner}${/^[A-Za-z_]\w*$/.test(k) ? k : `'${k}'`}: ${literal(v, inner)},`,
    )
    return `{\n${lines.join('\n')}\n${indent}}`
  }
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
  return String(value)
}

/** The text of src/catalogue-data.ts (before the formatter) for `plugins`. */
export function renderCatalogue(plugins: ReturnType<typeof buildPlugins>): string {
  return `// Generated by scripts/generate-catalogue.ts from scripts/plugins.json (the research catalogue).
// Hand edits here: \`runnable\`, \`slow\` and \`unavailableReason\` only (the generator keeps them).
// Ranges and patterns the reference leaves open are in scripts/catalogue-overrides.ts.
import type { PluginSpec } from './catalogue.ts'

/** Every plugin and operation of the delivery-URL language. */
export const PLUGINS: readonly PluginSpec[] = ${literal(plugins, '')}
`
}
