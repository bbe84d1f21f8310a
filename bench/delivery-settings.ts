// The delivery benchmark's settings (env BENCH_*), its two workloads over one large JPEG, and the
// variants it compares (delivery.bench.ts). One sharp module instance for everything in-process.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { DEFAULT_OPTIONS } from '@tessera/engine'
import type { Sharp, SharpOptions } from 'sharp'
import { ID_MARK } from './delivery-client.ts'

// ---------------------------------------------------------------------------------------------
// Settings.

/**
 * Requests in flight at once, for every variant: 4 HTTP connections, or 4 concurrent in-process
 * calls. This machine has 2 cores: 4 keeps both busy while any one request waits on I/O (HTTP,
 * file read, database), equals libuv's default thread pool (4, where sharp runs), so all 4 direct
 * sharp calls really run at once, and stays small enough that latency is mostly work, not
 * queueing. (Our engine itself runs at most `ENGINE_CONCURRENCY` = cores = 2 pipelines at once
 * and queues the rest; that is part of what is measured.)
 */
export const CONCURRENCY = 4
export const SECONDS = readSeconds(process.env.BENCH_SECONDS)
/** Only the warm variant and the bare peer (`BENCH_ONLY=warm`). */
export const ONLY_WARM = process.env.BENCH_ONLY === 'warm'
/** Turns of warm then bare, per workload. */
export const TURNS = readTurns(process.env.BENCH_TURNS, ONLY_WARM ? 3 : 1)
// Turns of ours cold and ipx (each measured BENCH_SECONDS), alternating; their means are reported.
export const COLD_TURNS = readTurns(process.env.BENCH_COLD_TURNS, 1)
export const WARMUP_SECONDS = 3

export const SOURCE_WIDTH = 2725
export const SOURCE_HEIGHT = 2225
export const OUTPUT_WIDTH = 720
export const OUTPUT_HEIGHT = 588
/** The engine's default JPEG settings (packages/engine/src/engine.ts, configureOutput). */
export const JPEG = { quality: 80, mozjpeg: false } as const
/** The catalogue's default `t.sharpen` sigma. */
const SHARPEN_SIGMA = 1.5

export const TARGETS = {
  coldVsSharp: 0.8,
  coldVsIpx: 1,
  warmRps: 5000,
  warmP99Ms: 20,
  warmVsBare: 0.8,
}
/** Cores other processes may use during a run before its figures are flagged as disturbed. */
export const OTHER_LOAD_LIMIT = 0.1

export const CLOUD_NAME = 'demo'
export const FILE_PATH = 'bench/big.jpg'
export const SAMPLE = fileURLToPath(
  new URL('../apps/server/demo/samples/hubble_deep_field.jpg', import.meta.url),
)

function readTurns(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const turns = Number(value)
  if (!Number.isInteger(turns) || turns < 1 || turns > 20) {
    throw new RangeError(`BENCH_TURNS must be a whole number from 1 to 20, got '${value}'`)
  }
  return turns
}

function readSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 10
  const seconds = Number(value)
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) {
    throw new RangeError(`BENCH_SECONDS must be a whole number from 1 to 60, got '${value}'`)
  }
  return seconds
}

// The same sharp as the engine's (0.35, through @tessera/engine's own resolution), not the 0.34
// that ipx bundles. One module instance: the engine's process-wide settings apply to it too.
type SharpFactory = ((input: Buffer, options?: SharpOptions) => Sharp) & {
  versions: { sharp?: string; vips: string }
  concurrency(): number
}
const requireFromEngine = createRequire(import.meta.resolve('@tessera/engine'))
export const sharp = requireFromEngine('sharp') as SharpFactory
export const requireHere = createRequire(import.meta.url)
export const ipxSharp = createRequire(requireHere.resolve('ipx'))('sharp') as SharpFactory

// The engine opens every source with these options (engine.ts, openSource).
export const SOURCE_OPTIONS: SharpOptions = {
  autoOrient: true,
  failOn: 'error',
  limitInputPixels: DEFAULT_OPTIONS.maxInputPixels,
}

// ---------------------------------------------------------------------------------------------
// Workloads. `ID_MARK` is where a cold request writes its own id, as the background colour of
// the cover resize: every URL (and so every cache key of ours) is new, while the pixel work
// stays exactly that of the warm URL (a cover resize never paints its background). Direct sharp
// and ipx get the same colour per request, so all three do the same work.

export interface Workload {
  id: 'A' | 'B'
  description: string
  /** Our pattern, with `ID_MARK` (cold). */
  pattern: string
  /** Our pattern of the warm runs: the same without the colour. */
  warmPattern: string
  /** The ipx path, with `ID_MARK`. */
  ipx: string
  /** The direct-sharp equivalent, on an image opened with `SOURCE_OPTIONS`. */
  direct: (image: Sharp, background: string) => Sharp
}

export const WORKLOADS: readonly Workload[] = [
  {
    id: 'A',
    description: `resize ${SOURCE_WIDTH}×${SOURCE_HEIGHT} → ${OUTPUT_WIDTH}×${OUTPUT_HEIGHT} (cover), JPEG q80`,
    pattern: `t.resize(w:720,h:588,b:${ID_MARK})`,
    warmPattern: 't.resize(w:720,h:588)',
    ipx: `/s_720x588,fit_cover,b_${ID_MARK},q_80/${FILE_PATH}`,
    direct: (image, background) =>
      image.resize({ width: OUTPUT_WIDTH, height: OUTPUT_HEIGHT, fit: 'cover', background }),
  },
  {
    id: 'B',
    description: `resize ${OUTPUT_WIDTH}×${OUTPUT_HEIGHT} → sharpen (σ ${SHARPEN_SIGMA}) → flip, JPEG q80`,
    pattern: `t.resize(w:720,h:588,b:${ID_MARK})~t.sharpen(s:1.5)~t.flip()`,
    warmPattern: 't.resize(w:720,h:588)~t.sharpen(s:1.5)~t.flip()',
    ipx: `/s_720x588,fit_cover,b_${ID_MARK},sharpen_1.5,flip,q_80/${FILE_PATH}`,
    // One sharp pipeline (sharp applies flip before the resize in its fixed order; for a centred
    // cover crop the result is the same picture). Ours runs resize+sharpen, then the flip on the
    // rendered pixels, to keep the chain's order exact.
    direct: (image, background) =>
      image
        .resize({ width: OUTPUT_WIDTH, height: OUTPUT_HEIGHT, fit: 'cover', background })
        .sharpen({ sigma: SHARPEN_SIGMA })
        .flip(),
  },
]

export const deliveryPath = (pattern: string) => `/v2/${CLOUD_NAME}/${pattern}/${FILE_PATH}`

export type VariantKey =
  | 'sharp'
  | 'engine'
  | 'oursCold'
  | 'oursWarm'
  | 'bare'
  | 'ipx'
  | 'ipxDefault'

export const VARIANTS: Readonly<Record<VariantKey, string>> = {
  sharp: 'direct sharp (in-process)',
  engine: 'our engine (in-process, no HTTP)',
  oursCold: 'ours cold (HTTP)',
  oursWarm: 'ours warm (HTTP, cache hit)',
  bare: 'bare node:http, same bytes from memory',
  ipx: 'ipx (HTTP, baseline JPEG as ours)',
  ipxDefault: 'ipx (HTTP, its default: progressive)',
}
