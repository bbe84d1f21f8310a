import { type AiError, type AiImage, isAiError } from '@tessera/ai'
import { EngineError, type EngineErrorCode } from './errors.ts'
import type { RawImage } from './pipeline.ts'
import type { Step } from './step.ts'

const CODES: Readonly<Record<AiError['code'], EngineErrorCode>> = {
  too_many_pixels: 'too_many_pixels',
  invalid_param: 'invalid_param',
  invalid_image: 'invalid_image',
  model_unavailable: 'model_unavailable',
  timeout: 'timeout',
  busy: 'busy',
  model_failed: 'operation_failed',
}

// Timeouts of a model itself: the same input and model take as long again, so a job that met
// one is not tried again (issue 19 finding 4), unlike the engine's own timeout on a busy machine.
const MODEL_TIMEOUTS = new WeakSet<EngineError>()

/** Turns an error of @tessera/ai into the engine's own, keeping the message. */
export function fromAiError(error: unknown): unknown {
  if (!isAiError(error)) return error
  const converted = new EngineError(CODES[error.code], error.message, {
    cause: error.cause ?? error,
  })
  if (error.code === 'timeout') MODEL_TIMEOUTS.add(converted)
  return converted
}

/** Whether `error` is an AI model's own timeout (AI_TIMEOUT_MS), not the engine's. */
export function isModelTimeout(error: unknown): boolean {
  return error instanceof EngineError && MODEL_TIMEOUTS.has(error)
}

/** The pixels of a raw image as @tessera/ai takes them: the first frame of an animation. */
export function toAiImage(image: RawImage): AiImage {
  const frame = image.width * image.height * image.channels
  const data = image.pages > 1 ? image.data.subarray(0, frame) : image.data
  return { data, width: image.width, height: image.height, channels: image.channels }
}

function toRawImage(image: AiImage): RawImage {
  const { data } = image
  const buffer = Buffer.isBuffer(data)
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.length)
  return {
    data: buffer,
    width: image.width,
    height: image.height,
    channels: image.channels,
    pages: 1,
  }
}

/**
 * Runs an AI operation as one step of a chain: the image so far is materialised, handed to
 * the model's worker, and the chain continues from the result (a detection passes the image on
 * unchanged and reports what it found).
 */
export async function runAiStep(step: Step): Promise<void> {
  const raw = await step.image.raw()
  try {
    const result = await step.ai().run({
      key: step.key,
      image: toAiImage(raw),
      params: step.params,
      maxOutputDimension: step.maxOutputDimension,
      loadImage: async (fileId) => toAiImage(await step.loadImage(fileId, '')),
    })
    // The models see one frame: the context says so, and the chain goes on with a still.
    const frames = Math.max(raw.pages, step.sourceFrames)
    const data = frames > 1 ? { ...result.data, firstFrameOnly: true, frames } : result.data
    if (data !== undefined) step.report(data)
    if (result.image.data !== raw.data) {
      step.checkSize(result.image.width, result.image.height)
      step.image.replace(toRawImage(result.image))
    }
  } catch (error) {
    throw fromAiError(error)
  }
}
