// Decoded sources kept across jobs (issue 25, decision 023): the third time a job reads a plain
// 8-bit source whole (no shrink-on-load), its pixels are decoded once and kept, least recently
// used first out, so the next sizes of the same source start from raw pixels instead of
// decoding it again. A source is known by its very Buffer, as the engine's header cache knows it
// (inputs are never written to; delivery keeps a hot original as one Buffer).
import sharp, { type SharpOptions } from 'sharp'
import type { OutputFormat } from './formats.ts'
import type { EngineOptions } from './options.ts'
import { type Clock, type RawImage, type Reuse, runSharp, toRawImage } from './pipeline.ts'
import { FAIL_ON, SHRINK_ON_LOAD, type SourceInfo } from './source.ts'

/** Most pixels of a kept source: larger ones are decoded by every job, as before. */
export const DECODED_MAX_PIXELS = 16_000_000

/**
 * The whole read of a source that decodes it to keep: the first ones render as before, so a
 * source asked once or twice costs no copy of its pixels (decoding to keep, then rendering from
 * the pixels, costs ~10 % more than one render from the encoded input).
 */
export const KEEP_AT_ASK = 3

/**
 * How far the ask that keeps moves up while kept sources go out unused (each one a copy paid for
 * nothing: sources asked about that often, then no more), one step per such source; each source
 * whose pixels serve a job moves it one step back.
 */
export const MAX_KEEP_AT_ASK = 10

/** What the cache did, for tests and the benches. */
export interface DecodedCacheStats {
  /** Sources kept now, and their bytes (pixels plus the encoded input each entry holds). */
  entries: number
  bytes: number
  /** Jobs that started from kept pixels. */
  hits: number
  /** Sources decoded to be kept. */
  decodes: number
  /** The ask that keeps a source now (`KEEP_AT_ASK` to `MAX_KEEP_AT_ASK`). */
  keepAt: number
}

export interface DecodedCache {
  /**
   * The kept pixels of `input`; on its `KEEP_AT_ASK`th ask (or later, see `MAX_KEEP_AT_ASK`),
   * decodes it with `decode` and keeps them; undefined on earlier asks, for a source whose pixels (`size` bytes) would take more
   * than half the budget, or when the cache is off.
   */
  get(input: Buffer, size: number, decode: () => Promise<RawImage>): Promise<RawImage | undefined>
  stats(): DecodedCacheStats
}

interface Entry {
  image: RawImage
  bytes: number
  used: boolean
}

/** A cache of at most `budgetBytes` (0: off); one entry may take at most half of it. */
export function createDecodedCache(budgetBytes: number): DecodedCache {
  // Map order is recency: a hit moves its entry to the end, eviction takes from the front.
  const entries = new Map<Buffer, Entry>()
  const asks = new WeakMap<Buffer, number>()
  // Sources never to keep again: too large, their decode failed (the job's own path reports
  // it), or kept and pushed out unused (more sources come between its asks than the budget
  // holds: keeping it again would cost a copy every few asks for nothing).
  const refused = new WeakSet<Buffer>()
  const decoding = new Map<Buffer, Promise<RawImage | undefined>>()
  let bytes = 0
  let hits = 0
  let decodes = 0
  let keepAt = KEEP_AT_ASK

  function keep(input: Buffer, image: RawImage): boolean {
    const size = image.data.length + input.length
    if (size > budgetBytes / 2) return false
    entries.set(input, { image, bytes: size, used: false })
    bytes += size
    for (const [key, entry] of entries) {
      if (bytes <= budgetBytes) break
      entries.delete(key)
      bytes -= entry.bytes
      if (!entry.used) {
        refused.add(key)
        keepAt = Math.min(MAX_KEEP_AT_ASK, keepAt + 1)
      }
    }
    return true
  }

  async function decodeAndKeep(
    input: Buffer,
    decode: () => Promise<RawImage>,
  ): Promise<RawImage | undefined> {
    try {
      const image = await decode()
      decodes++
      if (!keep(input, image)) refused.add(input)
      return image
    } catch {
      // The job reads the encoded input instead and meets (and reports) the same failure.
      refused.add(input)
      return undefined
    } finally {
      decoding.delete(input)
    }
  }

  function hit(entry: Entry): RawImage {
    if (!entry.used) keepAt = Math.max(KEEP_AT_ASK, keepAt - 1)
    entry.used = true
    hits++
    return entry.image
  }

  return {
    async get(input, size, decode) {
      if (budgetBytes === 0 || refused.has(input)) return undefined
      if (size + input.length > budgetBytes / 2) return undefined
      const entry = entries.get(input)
      if (entry !== undefined) {
        entries.delete(input)
        entries.set(input, entry)
        return hit(entry)
      }
      const pending = decoding.get(input)
      if (pending !== undefined) {
        const image = await pending
        const kept = entries.get(input)
        return kept === undefined ? image : hit(kept)
      }
      const asked = (asks.get(input) ?? 0) + 1
      asks.set(input, asked)
      if (asked < keepAt) return undefined
      const started = decodeAndKeep(input, decode)
      decoding.set(input, started)
      return await started
    },
    stats: () => ({ entries: entries.size, bytes, hits, decodes, keepAt }),
  }
}

/** The engine's decoded sources: `reuseOf` gives a job's pipeline the way to its source's pixels. */
export function createDecodedSources(options: Readonly<EngineOptions>) {
  const cache = createDecodedCache(options.decodedCacheMb * 1024 * 1024)
  // Only pipelines that decode the source whole (no shrink-on-load) start from the kept pixels:
  // the same steps on the same pixels (pipeline.ts, `keptPixels`).
  function reuseOf(
    input: Buffer,
    source: SourceInfo,
    format: OutputFormat,
    clock: Clock,
  ): Reuse | undefined {
    const shrinkOnLoad = SHRINK_ON_LOAD[source.format]
    const pixels = source.width * source.height
    if (source.plain !== true || shrinkOnLoad === undefined || pixels > DECODED_MAX_PIXELS) return
    // A PNG is written with the density of the image it is made from: raw pixels have none.
    if (format === 'png' && source.density !== undefined) return
    const decode = async () => {
      const loading: SharpOptions = {
        autoOrient: true,
        failOn: FAIL_ON,
        limitInputPixels: options.maxInputPixels,
      }
      const { data, info } = await runSharp(sharp(input, loading).raw({ depth: 'uchar' }), clock)
      return toRawImage(data, info)
    }
    const size = pixels * (source.alpha ? 4 : 3)
    return { shrinkOnLoad, pixels: () => cache.get(input, size, decode) }
  }
  return { reuseOf, stats: () => cache.stats() }
}
