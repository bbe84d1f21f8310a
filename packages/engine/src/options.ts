import { availableParallelism } from 'node:os'

/** Safety limits and tuning of an engine; every field has a default (`DEFAULT_OPTIONS`). */
export interface EngineOptions {
  /** Most input pixels, animation frames summed (width × height × frames). */
  maxInputPixels: number
  /** Most pixels per side of any result or intermediate canvas (resize, extend, merge, rotate). */
  maxOutputDimension: number
  /** Most bytes of an input file (the source and every merged image). */
  maxInputBytes: number
  /** Most time one job may take once it runs, in milliseconds (queue time not counted). */
  timeoutMs: number
  /** Sharp pipelines run at once; further jobs wait in a queue. */
  concurrency: number
  /** AVIF/HEIF encoder effort, 0 (fastest) to 9; sharp's default 4 costs ~6× the time of 2. */
  avifEffort: number
  /**
   * Most elements of an SVG input. librsvg keeps about 6 KB per element while it renders
   * (measured: 200,000 elements took 1.25 GB per render), so the count bounds a render's memory.
   */
  maxSvgElements: number
  /**
   * Most bytes of a result whose size its format decides (BMP, TIFF), refused before rendering;
   * at most what the derived cache stores, so every such result is rendered once.
   */
  maxOutputBytes: number
  /** Most pixels an SVG input is rasterised to (its declared width × height). */
  maxSvgPixels: number
  /**
   * libvips' operation cache (`sharp.cache`, process-wide): memory in MB and operations kept.
   * A cached SVG load keeps librsvg's whole document alive outside the memory count, so the
   * count is what bounds it (issue 19 finding 2; docs/security.md).
   */
  cacheMemoryMb: number
  cacheItems: number
  /** Most pages of a PDF source; more is refused before any page is drawn. */
  maxPdfPages: number
  /**
   * Memory in MB for decoded sources kept across jobs (decoded-cache.ts, decision 023): a
   * source read whole a third time is decoded once and its next sizes start from its pixels.
   * `0` turns it off.
   */
  decodedCacheMb: number
  /**
   * `f_auto` answers AVIF only for an output at most this many pixels on its longer side, WebP
   * (when accepted) above: an AVIF encode takes 3.5–5× a WebP's, and above 1,200 px it saves
   * 19–29 % of the bytes for 0.56–1.5 s of a core (docs/benchmarks.md, "f_auto by cost").
   * Cloudflare Images draws the same line at 1,200 px. `0`: `f_auto` never answers AVIF. An
   * explicit `t.toFormat(f:avif)` is not limited.
   */
  autoAvifMaxSide: number
}

/** The defaults of `EngineOptions`; `concurrency` is the number of cores. */
export const DEFAULT_OPTIONS: Readonly<EngineOptions> = {
  maxInputPixels: 50_000_000,
  maxOutputDimension: 10_000,
  maxInputBytes: 50 * 1024 * 1024,
  timeoutMs: 30_000,
  concurrency: availableParallelism(),
  avifEffort: 2,
  maxSvgElements: 20_000,
  maxOutputBytes: 32 * 1024 * 1024,
  maxSvgPixels: 25_000_000,
  cacheMemoryMb: 32,
  cacheItems: 5,
  maxPdfPages: 2000,
  decodedCacheMb: 64,
  autoAvifMaxSide: 1200,
}

function positiveInteger(
  name: string,
  value: number,
  max = Number.MAX_SAFE_INTEGER,
  min = 1,
): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(
      `Engine option ${name} must be an integer from ${min} to ${max}, got ${value}`,
    )
  }
  return value
}

/**
 * Merges `options` over the defaults and checks them.
 *
 * @throws {RangeError} for a value that is not a positive integer (or an effort outside 0–9).
 */
export function resolveOptions(options: Partial<EngineOptions> = {}): Readonly<EngineOptions> {
  const merged = { ...DEFAULT_OPTIONS, ...options }
  const avifEffort = merged.avifEffort
  if (!Number.isInteger(avifEffort) || avifEffort < 0 || avifEffort > 9) {
    throw new RangeError(
      `Engine option avifEffort must be an integer from 0 to 9, got ${avifEffort}`,
    )
  }
  return Object.freeze({
    maxInputPixels: positiveInteger('maxInputPixels', merged.maxInputPixels),
    // libvips images are limited to 10,000,000 pixels per side.
    maxOutputDimension: positiveInteger(
      'maxOutputDimension',
      merged.maxOutputDimension,
      10_000_000,
    ),
    maxInputBytes: positiveInteger('maxInputBytes', merged.maxInputBytes),
    timeoutMs: positiveInteger('timeoutMs', merged.timeoutMs),
    concurrency: positiveInteger('concurrency', merged.concurrency, 1024),
    avifEffort,
    maxSvgElements: positiveInteger('maxSvgElements', merged.maxSvgElements),
    maxSvgPixels: positiveInteger('maxSvgPixels', merged.maxSvgPixels),
    maxOutputBytes: positiveInteger('maxOutputBytes', merged.maxOutputBytes),
    // 0 turns the cache off.
    cacheMemoryMb: positiveInteger('cacheMemoryMb', merged.cacheMemoryMb, 1_000_000, 0),
    cacheItems: positiveInteger('cacheItems', merged.cacheItems, 1_000_000, 0),
    maxPdfPages: positiveInteger('maxPdfPages', merged.maxPdfPages, 1_000_000),
    decodedCacheMb: positiveInteger('decodedCacheMb', merged.decodedCacheMb, 1_000_000, 0),
    autoAvifMaxSide: positiveInteger('autoAvifMaxSide', merged.autoAvifMaxSide, 10_000_000, 0),
  })
}
