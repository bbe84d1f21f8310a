import { makesTransparency } from '@tessera/ai'
import type { ParsedOperation } from '@tessera/url'

/** Formats the engine writes. */
export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'heif', 'bmp'] as const

/** One of `OUTPUT_FORMATS`. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** The `Content-Type` of each output format. */
export const CONTENT_TYPES: Readonly<Record<OutputFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
  heif: 'image/heif',
  bmp: 'image/bmp',
}

/** Formats that keep every frame of an animation. */
export const ANIMATED_FORMATS: ReadonlySet<OutputFormat> = new Set<OutputFormat>(['gif', 'webp'])

// Formats that hold an alpha channel, and browsers show: a cut-out of a source in one of them
// stays in its format (a TIFF's becomes PNG).
const ALPHA_FORMATS: ReadonlySet<string> = new Set(['png', 'webp', 'avif'])

/** Quality numbers of the `t.toFormat` quality words. */
export const QUALITY_WORDS: Readonly<Record<string, number>> = {
  best: 95,
  good: 80,
  eco: 60,
  low: 40,
}

// Source formats written back as themselves: those browsers show. Everything else (svg, ico,
// heic/heif whose HEVC encoder sharp lacks, tiff that only Safari shows, pdf, unknown) falls back
// to PNG, or JPEG when known to be opaque (a PDF page: PNG). `t.toFormat(f:tiff)` still writes
// TIFF.
const WRITABLE_SOURCES: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'avif', 'gif', 'bmp'])

const ALIASES: Readonly<Record<string, string>> = {
  jpg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  tif: 'tiff',
}

/** A file format name in the engine's spelling: lower-case, no dot, `jpg` → `jpeg`, `tif` → `tiff`. */
export function normaliseFormat(format: string): string {
  const name = format.trim().toLowerCase().replace(/^\./, '')
  return ALIASES[name] ?? name
}

/** What `chooseOutputFormat` needs to know; all of it is known before any image work. */
export interface OutputFormatRequest {
  /** The stored file's format (`jpg`, `png`, `svg`, `heic`…; any spelling `normaliseFormat` reads). */
  sourceFormat: string
  /** The operation chain; only the last `t.toFormat` is read. */
  operations: readonly Pick<ParsedOperation, 'spec' | 'params'>[]
  /** The request's `Accept` header. */
  accept?: string
  /** The `f_auto` option. */
  autoFormat?: boolean
  /** Whether the source has transparency; unknown counts as yes (PNG fallback). */
  hasAlpha?: boolean
  /** Whether the source is an animation (GIF/WebP with several frames). */
  animated?: boolean
  /** The output's size, as `outputSizeOf` predicts it; unknown: no limit applies. */
  outputSize?: { width: number; height: number }
  /**
   * `f_auto` answers AVIF only up to this many pixels on the output's longer side (`0`: never);
   * unset: no limit. The engine sets it from `autoAvifMaxSide`.
   */
  autoAvifMaxSide?: number
}

/**
 * Reads whether an `Accept` header lists `type` with a non-zero quality. Wildcards do not count:
 * browsers name `image/avif` and `image/webp` explicitly when they support them.
 */
export function acceptsType(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false
  for (const range of accept.toLowerCase().split(',')) {
    const [name = '', ...parameters] = range.split(';')
    if (name.trim() !== type) continue
    const q = parameters.map((part) => part.trim()).find((part) => part.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

function requestedFormat(
  operations: readonly Pick<ParsedOperation, 'spec' | 'params'>[],
): OutputFormat | undefined {
  for (let index = operations.length - 1; index >= 0; index--) {
    const operation = operations[index]
    if (operation?.spec?.key !== 't.toFormat') continue
    const format = operation.params.f
    if (typeof format === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(format)) {
      return format as OutputFormat
    }
  }
  return undefined
}

/** Whether a step of the chain makes transparency whatever the source (a cut-out). */
export function chainMakesTransparency(
  operations: readonly Pick<ParsedOperation, 'spec' | 'params'>[],
): boolean {
  return operations.some(
    (operation) =>
      operation.spec !== undefined && makesTransparency(operation.spec.key, operation.params),
  )
}

/**
 * Whether `f_auto` may answer AVIF for an output of `size` under `autoAvifMaxSide` (unset: no
 * limit; `0`: never; an unknown size: allowed). An AVIF encode takes 3.5–5× a WebP's (options.ts).
 */
export function autoAvifFits(
  size: { width: number; height: number } | undefined,
  autoAvifMaxSide: number | undefined,
): boolean {
  if (autoAvifMaxSide === undefined) return true
  if (autoAvifMaxSide === 0) return false
  return size === undefined || Math.max(size.width, size.height) <= autoAvifMaxSide
}

/**
 * Picks the output format of a transformation before any image work, so the server can build
 * its cache key and `Vary` header:
 *
 * 1. the last `t.toFormat(f:…)` of the chain wins;
 * 2. else with `f_auto`: AVIF when `Accept` lists image/avif and the output's longer side is at
 *    most `autoAvifMaxSide`, else WebP when it lists image/webp, else the source format; an
 *    animation becomes WebP when accepted, else GIF (never AVIF);
 * 3. else the source format.
 *
 * A chain with a cut-out (`erase.bg`, `remove.bg`, a transparent `shadow.gen`) always answers
 * in a format that keeps alpha: AVIF or WebP under `f_auto` when accepted, else the source
 * format when it holds alpha (PNG, WebP, AVIF), else PNG. Only an explicit
 * `t.toFormat(f:jpeg)` flattens it (on white).
 *
 * A source format browsers do not show or the engine cannot write (svg, ico, heic, heif, tiff,
 * anything unknown) becomes PNG, or JPEG when `hasAlpha` is `false`; a PDF page becomes PNG.
 *
 * @example
 * chooseOutputFormat({ sourceFormat: 'jpg', operations: [], autoFormat: true, accept: 'image/webp' })
 * // 'webp'
 */
export function chooseOutputFormat(request: OutputFormatRequest): OutputFormat {
  const requested = requestedFormat(request.operations)
  if (requested !== undefined) return requested
  const source = normaliseFormat(request.sourceFormat)
  const avif =
    acceptsType(request.accept, 'image/avif') &&
    autoAvifFits(request.outputSize, request.autoAvifMaxSide)
  if (chainMakesTransparency(request.operations)) {
    if (request.autoFormat === true) {
      if (avif) return 'avif'
      if (acceptsType(request.accept, 'image/webp')) return 'webp'
    }
    return ALPHA_FORMATS.has(source) ? (source as OutputFormat) : 'png'
  }
  if (request.animated === true && (source === 'gif' || source === 'webp')) {
    if (request.autoFormat !== true) return source
    return acceptsType(request.accept, 'image/webp') ? 'webp' : 'gif'
  }
  if (request.autoFormat === true) {
    if (avif) return 'avif'
    if (acceptsType(request.accept, 'image/webp')) return 'webp'
  }
  if (WRITABLE_SOURCES.has(source)) return source as OutputFormat
  // A PDF page is drawn opaque, often text: PNG keeps its edges sharp.
  if (source === 'pdf') return 'png'
  return request.hasAlpha === false ? 'jpeg' : 'png'
}
