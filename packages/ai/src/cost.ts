// What an AI step costs before it runs, from its actual input (the pixels after the chain's
// earlier steps) and the model, so a step that cannot finish within AI_TIMEOUT_MS is refused at
// once instead of running to the limit (issue 19 finding 4). `ms = fixed + perMegapixel × input
// megapixels`, per model (and scale). The figures are this 2-core machine's when quiet
// (docs/benchmarks.md, AI bench quiet runs of 2026-11-23 and 2026-11-27, load 1.2–3.2):
//   sr.upscale Flash ×2    0.92–1.00 s for 256×170 → 21–23 s per input MP
//   sr.upscale Picasso ×2  3.45–3.90 s for 256×170 → 79–90 s per input MP
//   erase.bg               2.2–3.4 s whatever the size (ISNet sees 1024²)
//   ocr.extract            0.14 s for 512×512     → ~0.55 s per MP
//   od.detect, nsfw, faces 0.05–0.24 s (fixed-size models)
// and the ×4/×8 ratios from `bench/ai-cost-calibration.ts` (run under load average ~15, when every
// figure was 3–5× the quiet one: ×4 Flash ≈ 0.8× ×2 per input MP). The estimate is what a quiet
// machine takes, so only what cannot finish even then is refused; on a busy machine the time
// limit still stops the rest, and a model's timeout is not retried. Re-run the calibration (and
// adjust this table) when a model changes.
import type { AiParams } from './params.ts'

/** One model's cost: fixed milliseconds plus milliseconds per input megapixel. */
export interface AiCostModel {
  fixedMs: number
  msPerMegapixel: number
}

/** The models by what decides their cost. */
export const AI_COST_MODELS = {
  /** ESRGAN slim (`Flash`), by scale: tiles of the input, each up to scale² output. */
  'esrgan-slim-2': { fixedMs: 300, msPerMegapixel: 20_000 },
  'esrgan-slim-4': { fixedMs: 300, msPerMegapixel: 18_000 },
  'esrgan-slim-8': { fixedMs: 300, msPerMegapixel: 25_000 },
  /** ESRGAN medium (`Picasso`): about three and a half times slim. */
  'esrgan-medium-2': { fixedMs: 500, msPerMegapixel: 75_000 },
  'esrgan-medium-4': { fixedMs: 500, msPerMegapixel: 75_000 },
  'esrgan-medium-8': { fixedMs: 500, msPerMegapixel: 90_000 },
  /** PaddleOCR: detection over the whole image, recognition per line. */
  ocr: { fixedMs: 50, msPerMegapixel: 400 },
  /** Models that see a fixed size (ISNet, SSD/CenterNet, NSFW): resizing is the rest. */
  fixed: { fixedMs: 200, msPerMegapixel: 20 },
  /** OpenCV inpainting and QR: linear in pixels, fast. */
  pixels: { fixedMs: 20, msPerMegapixel: 100 },
} as const satisfies Record<string, AiCostModel>

export type AiCostModelName = keyof typeof AI_COST_MODELS

const SCALES: Readonly<Record<string, number>> = { '2x': 2, '4x': 4, '8x': 8 }

/** The models one step runs (a step may run two: text detection, then inpainting). */
export function costModelsOf(key: string, params: AiParams): AiCostModelName[] {
  switch (key) {
    case 'sr.upscale': {
      const scale = SCALES[params.string('t')] ?? 2
      const variant =
        params.string('model') === 'Flash' && !params.boolean('enhance_quality') ? 'slim' : 'medium'
      return [`esrgan-${variant}-${scale}` as AiCostModelName]
    }
    case 'ocr.extract':
    case 'wmc.detect':
      return ['ocr']
    case 'wm.remove':
      return params.boolean('rem_text') ? ['ocr', 'pixels'] : ['pixels']
    case 'im.mask':
      return params.string('d') === 'text' ? ['ocr', 'pixels'] : ['fixed', 'pixels']
    case 'qr.scan':
    case 'qr.generate':
      return ['pixels']
    default:
      return ['fixed']
  }
}

/** The estimated milliseconds of one AI step on an input of `width` × `height`. */
export function estimateAiMs(key: string, params: AiParams, width: number, height: number): number {
  const megapixels = (width * height) / 1_000_000
  let ms = 0
  for (const name of costModelsOf(key, params)) {
    const model: AiCostModel = AI_COST_MODELS[name]
    ms += model.fixedMs + model.msPerMegapixel * megapixels
  }
  return Math.round(ms)
}

/**
 * The most pixels `key` can take and still finish within `timeoutMs` by the estimate (for the
 * refusal's message): the side of a square image.
 */
export function largestSquareWithin(key: string, params: AiParams, timeoutMs: number): number {
  const perMegapixel = estimateAiMs(key, params, 1000, 1000) - estimateAiMs(key, params, 0, 0)
  const fixed = estimateAiMs(key, params, 0, 0)
  if (perMegapixel <= 0) return Number.POSITIVE_INFINITY
  const megapixels = Math.max(0, (timeoutMs - fixed) / perMegapixel)
  return Math.floor(Math.sqrt(megapixels * 1_000_000))
}
