// The key of a derived image: file version + normalised chain + format + dpr (+ the versions of
// files it merges in), so an overwrite never serves stale pixels and the same chain written two
// ways shares one entry. It is also the image's ETag and its job's dedupe key.
import { createHash } from 'node:crypto'
import { DPR_RANGE, type ParsedOperation, type UrlOptions } from '@tessera/url'

/** Normal form of the operation chain: same operations and values → same cache key. */
export function normalisedChain(operations: readonly ParsedOperation[]): string {
  return JSON.stringify(
    operations.map((operation) => [
      operation.spec?.key ?? `${operation.plugin}.${operation.name}`,
      Object.entries(operation.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ]),
  )
}

/** The device pixel ratio to render at: the URL's, or with `dpr=auto` the client's hint. */
export function readDpr(options: UrlOptions, headers: Headers): number {
  if (options.dpr === undefined) return 1
  if (options.dpr !== 'auto') return options.dpr
  // Client hints: Sec-CH-DPR (current) or DPR (legacy); out-of-range hints are clamped.
  const hint = Number(headers.get('sec-ch-dpr') ?? headers.get('dpr') ?? '1')
  if (!Number.isFinite(hint)) return 1
  return Math.min(DPR_RANGE.max, Math.max(DPR_RANGE.min, Math.round(hint * 100) / 100))
}

/** The step `dpr=auto` hints are rounded up to for a chain with AI operations. */
export const AI_DPR_STEP = 0.5

/**
 * The DPR an AI render is made at for a `dpr=auto` hint: rounded up to `AI_DPR_STEP`, so one
 * signed URL renders (and charges) a handful of variants, not one per hint a client can send.
 */
export function aiDpr(dpr: number): number {
  return Math.min(DPR_RANGE.max, Math.ceil(dpr / AI_DPR_STEP) * AI_DPR_STEP)
}

/** The request headers an answer depends on, for `Vary`. */
export function varyOf(options: UrlOptions): string[] {
  const vary: string[] = []
  if (options.f_auto === true) vary.push('Accept')
  if (options.dpr === 'auto') vary.push('Sec-CH-DPR', 'DPR')
  return vary
}

/** What a derived image is made of. */
export interface DerivedKeyParts {
  file: { id: string; version: number }
  operations: readonly ParsedOperation[]
  format: string
  dpr: number
  /** Files the chain merges in: their versions are part of what it shows. */
  merged: readonly { id: string; version: number }[]
}

/** The 40-hex-digit key of a derived image. */
export function derivedCacheKey(parts: DerivedKeyParts): string {
  const { file, operations, format, dpr, merged } = parts
  return createHash('sha256')
    .update(`${file.id}\n${file.version}\n${normalisedChain(operations)}\n${format}\n${dpr}`)
    .update(merged.map((other) => `\n${other.id}:${other.version}`).join(''))
    .digest('hex')
    .slice(0, 40)
}
