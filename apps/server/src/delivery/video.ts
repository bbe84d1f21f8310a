// Video in delivery (issue 23; docs/delivery.md#video). A chain on a stored video answers a video
// (MP4/WebM/GIF: ffmpeg, as a job, 202 until it is stored) or a still (`vid.frame`, or an image
// format asked: the frame from ffmpeg, then the image engine runs the chain on it, at once). An
// animation (GIF, animated WebP) asked as MP4/WebM is a video job too. Everything else is the
// image engine's. The chain is checked against the limits from the file's row before anything
// runs or is charged.
import {
  acceptsType,
  autoAvifFits,
  outputSizeOf,
  type StepReport,
  type TransformResult,
} from '@tessera/engine'
import {
  answersStill,
  asksVideoFormat,
  defaultVideoFormat,
  planStill,
  requestedFormat,
} from '@tessera/media'
import { isVideoFormat, type ParsedOperation, parsePattern } from '@tessera/url'
import type { AppContext } from '../context.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import type { FileRow } from './resolve.ts'

/** The ledger reason of credits spent on a video transformation. */
export const VIDEO_REASON = 'video_transformation'

/**
 * What a video transformation costs: one credit per started minute of the video it writes
 * (a 10 s clip: 1; a 2 min 30 s one: 3). Stills of a video cost nothing, like images.
 */
export const VIDEO_SECONDS_PER_CREDIT = 60

/** How a chain on this file is answered, when video has a part in it. */
export interface VideoTarget {
  /** The output format (`mp4`, `webm`, `gif`, or the still's image format). */
  format: string
  /** A video output: made by a job (202 until stored). A still is made at once. */
  job: boolean
}

const ANIMATIONS: ReadonlySet<string> = new Set(['gif', 'webp'])

/**
 * The video part of a request, known before any work: undefined when the image engine answers
 * alone. An image (not an animation) asked as MP4/WebM is refused.
 *
 * @throws {HttpError} 400 `invalid_transformation`.
 */
export function videoTargetOf(
  file: Pick<FileRow, 'format'>,
  operations: readonly ParsedOperation[],
  how: { accept: string | undefined; autoFormat: boolean; avif?: boolean },
): VideoTarget | undefined {
  const asked = requestedFormat(operations)
  if (isVideoFormat(file.format)) {
    if (!answersStill(operations)) {
      return { format: asked ?? defaultVideoFormat(file.format), job: true }
    }
    if (asked !== undefined) return { format: asked, job: false }
    if (how.autoFormat && how.avif !== false && acceptsType(how.accept, 'image/avif'))
      return { format: 'avif', job: false }
    if (how.autoFormat && acceptsType(how.accept, 'image/webp'))
      return { format: 'webp', job: false }
    return { format: 'jpeg', job: false }
  }
  if (!asksVideoFormat(operations)) return undefined
  if (ANIMATIONS.has(file.format)) return { format: asked as string, job: true }
  throw new HttpError(
    400,
    'invalid_transformation',
    `t.toFormat: ${asked} is written from a video or an animation (GIF, WebP), not from a ${file.format} image`,
  )
}

/** Whether a derived answer is a video (answered with ranges, so not by the fast lane). */
export const isVideoAnswer = (row: { contentType: string }) => row.contentType.startsWith('video/')

/** The size of the chain's result on the file, from its row (undefined when not known). */
function outputSizeOnFile(
  file: Pick<FileRow, 'width' | 'height'>,
  operations: readonly ParsedOperation[],
  dpr: number,
) {
  if (!file.width || !file.height) return undefined
  return outputSizeOf(operations, file.width, file.height, dpr)
}

/**
 * Whether `f_auto` may answer AVIF for the chain on the file: its result is at most the engine's
 * `autoAvifMaxSide` on its longer side, as the engine itself decides from the same size.
 */
export function autoAvifAllowed(
  engine: AppContext['engine'],
  file: Pick<FileRow, 'width' | 'height'>,
  operations: readonly ParsedOperation[],
  dpr: number,
  outputSize = outputSizeOnFile(file, operations, dpr),
): boolean {
  return autoAvifFits(outputSize, engine.options.autoAvifMaxSide)
}

/** The output format of a request, and the video part of it (`videoTargetOf`), if any. */
export function outputOf(
  engine: AppContext['engine'],
  file: Pick<FileRow, 'format' | 'width' | 'height'>,
  operations: readonly ParsedOperation[],
  how: { accept: string | undefined; autoFormat: boolean; dpr: number },
): { format: string; video?: VideoTarget } {
  const { accept, autoFormat, dpr } = how
  const outputSize = outputSizeOnFile(file, operations, dpr)
  const avif = autoAvifAllowed(engine, file, operations, dpr, outputSize)
  const video = videoTargetOf(file, operations, { accept, autoFormat, avif })
  if (video !== undefined) return { format: video.format, video }
  const format = engine.chooseOutputFormat({
    sourceFormat: file.format,
    operations,
    ...(accept === undefined ? {} : { accept }),
    ...(outputSize === undefined ? {} : { outputSize }),
    autoFormat,
  })
  return { format }
}

/** The part of the source a video chain works on, from the file's row. */
function sourceOf(file: FileRow) {
  return {
    width: file.width ?? 1,
    height: file.height ?? 1,
    duration: file.video?.duration ?? 0,
    format: file.format,
  }
}

/**
 * Checks a video chain against the limits and reads what it costs, before it is queued: no
 * credits and no reason for a request that is not a video job.
 *
 * @throws {HttpError} 400 naming the operation; 422 `video_too_long`, `video_too_large`.
 */
export function videoCharge(
  app: Pick<AppContext, 'video'>,
  file: FileRow,
  operations: readonly ParsedOperation[],
  target: { dpr: number; video?: VideoTarget },
): { credits: number; reason?: string } {
  if (target.video?.job !== true) return { credits: 0 }
  try {
    const plan = app.video.plan(operations, sourceOf(file), target.dpr)
    const credits = Math.max(1, Math.ceil(plan.duration / VIDEO_SECONDS_PER_CREDIT))
    return { credits, reason: VIDEO_REASON }
  } catch (error) {
    throw engineErrorToHttp(error)
  }
}

const toFormat = (format: string) => parsePattern(`t.toFormat(f:${format})`).value

/**
 * Makes what a video chain asks: the video (ffmpeg), or the still (ffmpeg's frame, then the
 * image engine runs the chain on it). An animated WebP is made a GIF by the engine first
 * (ffmpeg reads no animated WebP).
 */
export async function deriveVideo(
  app: Pick<AppContext, 'video' | 'engine'>,
  file: FileRow,
  input: Buffer,
  request: {
    operations: readonly ParsedOperation[]
    target: VideoTarget
    dpr: number
    accept: string | undefined
    autoFormat: boolean
    /** Loads a file `t.merge` names, for a still. */
    loadFile?: (reference: string) => Promise<Buffer | undefined>
  },
): Promise<TransformResult> {
  const { operations, target, dpr } = request
  if (!target.job) {
    const plan = planStill(operations, sourceOf(file))
    // The frame size was probed at upload: no second probe before the frame.
    const known =
      file.width !== null && file.height !== null
        ? { width: file.width, height: file.height }
        : undefined
    const frame = await app.video.still(input, plan.at, file.format, known)
    const chain =
      plan.format === undefined ? [...operations, ...toFormat(target.format)] : operations
    const result = await app.engine.transform({
      input: frame.data,
      operations: chain,
      dpr,
      autoFormat: false,
      ...(request.accept === undefined ? {} : { accept: request.accept }),
      ...(request.loadFile === undefined ? {} : { loadFile: request.loadFile }),
    })
    return { ...result, steps: result.steps.slice(0, operations.length) }
  }
  let source = input
  let format = file.format
  if (format === 'webp') {
    source = (await app.engine.transform({ input, operations: toFormat('gif') })).data
    format = 'gif'
  }
  const made = await app.video.transform(source, operations, { format, dpr })
  return {
    data: made.data,
    format: made.format as TransformResult['format'],
    contentType: made.contentType,
    width: made.width,
    height: made.height,
    // The transformation context's steps, in the engine's shape.
    steps: made.steps.map((step, index) => ({
      name: step.key,
      identifier: step.key.split('.')[0] ?? step.key,
      operation: step.key.split('.')[1] ?? step.key,
      params: (operations[index]?.params ?? {}) as StepReport['params'],
      data: null,
      width: step.width,
      height: step.height,
      hasAlpha: false,
    })),
  }
}
