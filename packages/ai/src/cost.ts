// What an AI step costs before it runs, from its actual input (the pixels after the chain's
// earlier steps) and the model, so a step that cannot finish within AI_TIMEOUT_MS is refused at
// once instead of running to the limit (issue 19 finding 4). `ms = fixed + perMegapixel × input
// megapixels`, per model (and scale). The figures are this 2-core machine's when quiet
// (docs/benchmarks.md, AI bench quiet runs of 2026-11-23 and 2026-11-27, load 1.2–3.2):
//   erase.bg               2.2–3.4 s whatever the size (ISNet sees 1024²)
//   ocr.extract            0.14 s for 512×512     → ~0.55 s per MP
//   od.detect, nsfw, faces 0.05–0.24 s (fixed-size models)
// sr.upscale was calibrated again on 2026-11-27 after each tile became back-projected (+0.7–1.0 s
// per output MP) and Picasso ×4 became two slim ×2 passes. The machine was loaded then (load
// average 13–23), so `bench/ai-cost-calibration.ts` timed each call between two reference calls
// (ocr.extract of 512², 0.14 s quiet) and scaled it by quiet ÷ loaded reference; two runs gave,
// in s per input MP: Flash ×2 16–20, ×4 31–40, ×8 124–135; Picasso ×2 63–122, ×4 (two slim
// passes) 118–128, ×8 88–101 (medium ×8 measured faster than slim ×8 in both runs). The table
// takes the middle of the two runs at ×4 and ×8; at ×2, where quiet runs of the network alone
// exist (Flash 20–23, Picasso 75–90 s/MP) and the loaded runs disagree most, it takes those plus
// the back-projection (≈ 3.4 s per input MP at ×2): Flash 22, Picasso 80.
// Such scaling is rough (±30 %): the estimate is meant to be what a quiet machine takes, so only
// what cannot finish even then is refused; on a busy machine the time limit still stops the
// rest, and a model's timeout is not retried. Re-run the calibration (and adjust this table)
// when a model changes.
import type { AiParams } from './params.ts'

/** One model's cost: fixed milliseconds plus milliseconds per input megapixel. */
export interface AiCostModel {
  fixedMs: number
  msPerMegapixel: number
}

/** The models by what decides their cost. */
export const AI_COST_MODELS = {
  /**
   * ESRGAN slim (`Flash`), by scale: tiles of the input, each up to scale² output, then each
   * tile back-projected (which grows with the output: ×8 is 64 times the input).
   */
  'esrgan-slim-2': { fixedMs: 300, msPerMegapixel: 22_000 },
  'esrgan-slim-4': { fixedMs: 300, msPerMegapixel: 35_000 },
  'esrgan-slim-8': { fixedMs: 300, msPerMegapixel: 130_000 },
  /** `Picasso` ×4: slim ×2, then slim ×2 of that (four times the pixels), back-projected. */
  'esrgan-slim-twice-4': { fixedMs: 500, msPerMegapixel: 125_000 },
  /** ESRGAN medium (`Picasso` ×2 and ×8): about three and a half times slim's network. */
  'esrgan-medium-2': { fixedMs: 500, msPerMegapixel: 80_000 },
  'esrgan-medium-8': { fixedMs: 500, msPerMegapixel: 95_000 },
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
      // The same choice as the upscaler's (ai.ts): Picasso ×4 is two slim ×2 passes.
      const scale = SCALES[params.string('t')] ?? 2
      const fast = params.string('model') === 'Flash' && !params.boolean('enhance_quality')
      const variant = fast ? 'slim' : scale === 4 ? 'slim-twice' : 'medium'
      return [`esrgan-${variant}-${scale}` as AiCostModelName]
    }
    case 'ocr.extract':
    case 'wmc.detect':
      return ['ocr']
    case 'wm.remove':
      // rem_text reads the image three times: as it is and turned ±30° (mark-text.ts).
      return params.boolean('rem_text') ? ['ocr', 'ocr', 'ocr', 'pixels'] : ['pixels']
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
