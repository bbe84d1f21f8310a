// What an AI step costs before it runs, from its actual input (the pixels after the chain's
// earlier steps) and the model, so a step that cannot finish within AI_TIMEOUT_MS is refused at
// once instead of running to the limit (issue 19 finding 4). `ms = fixed + perMegapixel × input
// megapixels`, calibrated on the 2-core development machine with `bench/ai-cost-calibration.ts`
// (warm models, AI_THREADS = 2; measured 2026-11-27, the machine shared with other work):
//   sr.upscale Flash ×2   0.83 s at 128², 5.2 s at 256²   → ~88 s per input MP
//   sr.upscale Flash ×4   1.2 s at 128², 4.7 s at 256²    → ~73 s per input MP
//   sr.upscale Picasso ×2 7.7 s at 128², 19.7 s at 256²   → ~240 s per input MP
//   ocr.extract           0.64 s at 0.26 MP, 7.9 s at 2.6 MP → ~3.1 s per MP
//   erase.bg, od.detect, im.mask(face), nsfw: the model sees a fixed size: ~constant
// The figures below are about 0.6× those (a busy machine measures slow), so only what clearly
// cannot finish is refused; the time limit still stops the rest.
import type { AiParams } from './params.ts'

/** One model's cost: fixed milliseconds plus milliseconds per input megapixel. */
export interface AiCostModel {
  fixedMs: number
  msPerMegapixel: number
}

/** The models by what decides their cost. */
export const AI_COST_MODELS = {
  /** ESRGAN slim (`Flash`), by scale: tiles of the input, each up to scale² output. */
  'esrgan-slim-2': { fixedMs: 500, msPerMegapixel: 50_000 },
  'esrgan-slim-4': { fixedMs: 500, msPerMegapixel: 45_000 },
  'esrgan-slim-8': { fixedMs: 500, msPerMegapixel: 60_000 },
  /** ESRGAN medium (`Picasso`): about three times slim. */
  'esrgan-medium-2': { fixedMs: 2000, msPerMegapixel: 150_000 },
  'esrgan-medium-4': { fixedMs: 2000, msPerMegapixel: 150_000 },
  'esrgan-medium-8': { fixedMs: 2000, msPerMegapixel: 180_000 },
  /** PaddleOCR: detection over the whole image, recognition per line. */
  ocr: { fixedMs: 300, msPerMegapixel: 2000 },
  /** Models that see a fixed size (ISNet, SSD/CenterNet, NSFW): resizing is the rest. */
  fixed: { fixedMs: 500, msPerMegapixel: 50 },
  /** OpenCV inpainting and QR: linear in pixels, fast. */
  pixels: { fixedMs: 50, msPerMegapixel: 100 },
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
