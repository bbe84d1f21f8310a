// A delivery chain read for video: which operations run on the frames (as ffmpeg filters, their
// sizes worked out here from the probed source so limits are checked before any work), which part
// of the timeline is kept (`vid.trim`), whether the answer is a still (`vid.frame`, or an image
// format asked of a video) and in which format. Anything else is refused naming the operation.
import { VideoError } from './video-errors.ts'

/** An operation as `@tessera/url`'s `parsePattern` gives it (only what is read here). */
export interface ChainOperation {
  spec?: { key: string } | undefined
  params: Readonly<Record<string, unknown>>
  /** The operation as written, for messages. */
  text?: string
  /** The parameters as written (defaults not filled in), when known. */
  values?: readonly { key: string }[] | undefined
}

/** Video formats delivery writes. */
export const VIDEO_OUTPUT_FORMATS = ['mp4', 'webm', 'gif'] as const
export type VideoOutputFormat = (typeof VIDEO_OUTPUT_FORMATS)[number]

/** Image formats a still of a video can be written in (by the image engine). */
export const STILL_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'tiff', 'bmp', 'heif'] as const

/** The `Content-Type` of each video output format. */
export const VIDEO_CONTENT_TYPES: Readonly<Record<VideoOutputFormat, string>> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
}

/** Operations a video output runs (others make a 400 naming them). */
export const VIDEO_OPERATIONS: readonly string[] = [
  't.resize',
  't.extract',
  't.rotate',
  't.flip',
  't.flop',
  't.compress',
  't.toFormat',
  'vid.trim',
]

/** The source as probed. */
export interface ChainSource {
  width: number
  height: number
  /** Seconds. */
  duration: number
  /** The stored format (`mp4`, `gif`…): the default output of a video chain follows it. */
  format: string
}

/** A chain that answers a still: the frame to take; the image engine runs the rest. */
export interface StillPlan {
  kind: 'still'
  /** Seconds from the start. */
  at: number
  /** The output format the chain asks (`t.toFormat`), if any. */
  format: string | undefined
}

/** A chain that answers a video. */
export interface VideoPlan {
  kind: 'video'
  format: VideoOutputFormat
  /** ffmpeg filters in chain order, sizes resolved. */
  filters: string[]
  width: number
  height: number
  /** The kept part of the timeline, seconds. */
  start: number
  duration: number
  /** 1–100 (`t.toFormat(q:…)`), default 75. */
  quality: number
  /** What each operation did, for the transformation context. */
  steps: { key: string; width: number; height: number }[]
}

const QUALITY_WORDS: Readonly<Record<string, number>> = { best: 95, good: 80, eco: 60, low: 40 }
const STILL_SET: ReadonlySet<string> = new Set(STILL_FORMATS)
const VIDEO_SET: ReadonlySet<string> = new Set(VIDEO_OUTPUT_FORMATS)

const keyOf = (operation: ChainOperation) => operation.spec?.key ?? operation.text ?? '?'
const num = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback

function refuse(key: string, why: string): never {
  throw new VideoError('invalid_operation', `${key}: ${why}`)
}

/** The format the chain's last `t.toFormat` asks, if any. */
export function requestedFormat(operations: readonly ChainOperation[]): string | undefined {
  for (let index = operations.length - 1; index >= 0; index--) {
    const operation = operations[index]
    if (operation?.spec?.key === 't.toFormat' && typeof operation.params.f === 'string') {
      return operation.params.f
    }
  }
  return undefined
}

/** Whether the chain asks a video format (`t.toFormat(f:mp4|webm|gif)`). */
export function asksVideoFormat(operations: readonly ChainOperation[]): boolean {
  const format = requestedFormat(operations)
  return format === 'mp4' || format === 'webm'
}

/**
 * Whether a chain on a video source answers a still: it has `vid.frame`, or its `t.toFormat`
 * asks an image format (GIF is an animation, so a video).
 */
export function answersStill(operations: readonly ChainOperation[]): boolean {
  if (operations.some((operation) => operation.spec?.key === 'vid.frame')) return true
  const format = requestedFormat(operations)
  return format !== undefined && STILL_SET.has(format)
}

/** The default video format of a source: WebM stays WebM, GIF stays GIF, the rest become MP4. */
export function defaultVideoFormat(sourceFormat: string): VideoOutputFormat {
  if (sourceFormat === 'webm') return 'webm'
  if (sourceFormat === 'gif') return 'gif'
  return 'mp4'
}

/** The still of a chain that answers one: which frame, in which format. */
export function planStill(operations: readonly ChainOperation[], source: ChainSource): StillPlan {
  let at = 0
  for (const operation of operations) {
    const key = keyOf(operation)
    if (key === 'vid.trim') refuse(key, 'a still has no timeline to cut (use vid.frame(t:…))')
    if (key !== 'vid.frame') continue
    at = num(operation.params.t, 0)
    if (at < 0) refuse(key, 't must be 0 or more seconds')
    // A duration of 0 is unknown (a row stored without one): ffmpeg finds the frame or says so.
    if (source.duration > 0 && at >= source.duration) {
      refuse(key, `t is ${at} s but the video lasts ${source.duration.toFixed(2)} s`)
    }
  }
  const format = requestedFormat(operations)
  if (format !== undefined && VIDEO_SET.has(format)) {
    refuse('vid.frame', `a still cannot be written as ${format}`)
  }
  return { kind: 'still', at, format }
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2)

function hex(colour: unknown): string {
  const text = typeof colour === 'string' ? colour.replace(/^#/, '') : '000000'
  return /^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(text) ? `0x${text.slice(0, 6)}` : '0x000000'
}

// Where a cover crop or a contain pad sits: (0–1, 0–1) per `p`.
const POSITIONS: Readonly<Record<string, [number, number]>> = {
  top: [0.5, 0],
  bottom: [0.5, 1],
  left: [0, 0.5],
  right: [1, 0.5],
  right_top: [1, 0],
  right_bottom: [1, 1],
  left_top: [0, 0],
  left_bottom: [0, 1],
  center: [0.5, 0.5],
}

function resize(
  operation: ChainOperation,
  width: number,
  height: number,
  dpr: number,
): { filters: string[]; width: number; height: number } {
  const scale = num(operation.params.dpr, 1) * dpr
  const askedW = Math.round(num(operation.params.w, 0) * scale)
  const askedH = Math.round(num(operation.params.h, 0) * scale)
  if (askedW === 0 && askedH === 0) return { filters: [], width, height }
  // One side given: the other keeps the aspect ratio.
  if (askedW === 0 || askedH === 0) {
    const w = askedW === 0 ? (width * askedH) / height : askedW
    const h = askedH === 0 ? (height * askedW) / width : askedH
    return {
      filters: [`scale=${Math.round(w)}:${Math.round(h)}`],
      width: Math.round(w),
      height: Math.round(h),
    }
  }
  const fit = typeof operation.params.f === 'string' ? operation.params.f : 'cover'
  const [px, py] = POSITIONS[String(operation.params.p ?? 'center')] ?? [0.5, 0.5]
  const ratio = width / height
  switch (fit) {
    case 'fill':
      return { filters: [`scale=${askedW}:${askedH}`], width: askedW, height: askedH }
    case 'inside':
    case 'contain': {
      const fitsW = askedW / askedH < ratio
      const w = fitsW ? askedW : Math.round(askedH * ratio)
      const h = fitsW ? Math.round(askedW / ratio) : askedH
      if (fit === 'inside') return { filters: [`scale=${w}:${h}`], width: w, height: h }
      const x = Math.round((askedW - w) * px)
      const y = Math.round((askedH - h) * py)
      const pad = `pad=${askedW}:${askedH}:${x}:${y}:color=${hex(operation.params.b)}`
      return { filters: [`scale=${w}:${h}`, pad], width: askedW, height: askedH }
    }
    case 'outside': {
      const fitsW = askedW / askedH > ratio
      const w = fitsW ? askedW : Math.round(askedH * ratio)
      const h = fitsW ? Math.round(askedW / ratio) : askedH
      return { filters: [`scale=${w}:${h}`], width: w, height: h }
    }
    default: {
      // cover: scaled to cover the box, then cut to it at `p`.
      const fitsW = askedW / askedH > ratio
      const w = fitsW ? askedW : Math.round(askedH * ratio)
      const h = fitsW ? Math.round(askedW / ratio) : askedH
      const x = Math.round((w - askedW) * px)
      const y = Math.round((h - askedH) * py)
      return {
        filters: [`scale=${w}:${h}`, `crop=${askedW}:${askedH}:${x}:${y}`],
        width: askedW,
        height: askedH,
      }
    }
  }
}

function rotate(operation: ChainOperation, width: number, height: number) {
  const angle = ((Math.round(num(operation.params.a, 0)) % 360) + 360) % 360
  if (angle === 0) return { filters: [], width, height }
  if (angle === 90) return { filters: ['transpose=1'], width: height, height: width }
  if (angle === 180) return { filters: ['hflip', 'vflip'], width, height }
  if (angle === 270) return { filters: ['transpose=2'], width: height, height: width }
  const radians = (angle * Math.PI) / 180
  const w = Math.ceil(Math.abs(width * Math.cos(radians)) + Math.abs(height * Math.sin(radians)))
  const h = Math.ceil(Math.abs(width * Math.sin(radians)) + Math.abs(height * Math.cos(radians)))
  const filter = `rotate=${radians.toFixed(6)}:ow=${w}:oh=${h}:fillcolor=${hex(operation.params.b)}`
  return { filters: [filter], width: w, height: h }
}

/** Limits the plan is checked against. */
export interface PlanLimits {
  maxSeconds: number
  maxPixels: number
}

/**
 * Reads a chain that answers a video: every operation must be one of `VIDEO_OPERATIONS`.
 *
 * @throws {VideoError} `invalid_operation` naming the operation; `too_many_pixels` or `too_long`
 *   when the output would pass `limits`.
 */
export function planVideo(
  operations: readonly ChainOperation[],
  source: ChainSource,
  limits: PlanLimits,
  dpr = 1,
): VideoPlan {
  let width = source.width
  let height = source.height
  let start = 0
  let duration = source.duration
  let quality = 75
  const filters: string[] = []
  const steps: VideoPlan['steps'] = []
  const format = (requestedFormat(operations) ?? defaultVideoFormat(source.format)) as string
  if (!VIDEO_SET.has(format)) refuse('t.toFormat', `a video cannot be written as ${format}`)
  for (const operation of operations) {
    const key = keyOf(operation)
    let step: { filters: string[]; width: number; height: number } | undefined
    switch (key) {
      case 't.resize':
        step = resize(operation, width, height, dpr)
        break
      case 't.extract': {
        if (operation.params.bbox !== undefined && operation.params.bbox !== null) {
          refuse(key, 'bbox is not read for video; give t, l, w and h')
        }
        const t = num(operation.params.t, 0)
        const l = num(operation.params.l, 0)
        const w = num(operation.params.w, 0)
        const h = num(operation.params.h, 0)
        if (w < 1 || h < 1 || l + w > width || t + h > height) {
          refuse(
            key,
            `the region ${w}×${h} at (${l}, ${t}) is not inside the ${width}×${height} frame`,
          )
        }
        step = { filters: [`crop=${w}:${h}:${l}:${t}`], width: w, height: h }
        break
      }
      case 't.rotate':
        step = rotate(operation, width, height)
        break
      case 't.flip':
        step = { filters: ['vflip'], width, height }
        break
      case 't.flop':
        step = { filters: ['hflip'], width, height }
        break
      case 't.compress':
        // The same quality scale as t.toFormat's q (a CRF is chosen from it).
        quality = num(operation.params.q, 80)
        break
      case 't.toFormat': {
        // A q the URL did not write (the catalogue's default) leaves t.compress's in place.
        if (operation.values !== undefined && !operation.values.some((v) => v.key === 'q')) break
        const q = operation.params.q
        quality = typeof q === 'string' ? (QUALITY_WORDS[q] ?? (Number(q) || 75)) : num(q, 75)
        break
      }
      case 'vid.trim': {
        const s = num(operation.params.s, 0)
        const d = num(operation.params.d, 0)
        if (s < 0 || (source.duration > 0 && s >= source.duration)) {
          refuse(key, `s is ${s} s but the video lasts ${source.duration.toFixed(2)} s`)
        }
        start = s
        // An unknown duration (0) is bounded by the transform's own probe of the file.
        const left = source.duration > 0 ? source.duration - s : Number.POSITIVE_INFINITY
        duration = d > 0 ? Math.min(d, left) : source.duration > 0 ? left : 0
        break
      }
      case 'vid.frame':
        refuse(key, `a still cannot be written as ${format}`)
        break
      default:
        refuse(key, `not available for video (video takes ${VIDEO_OPERATIONS.join(', ')})`)
    }
    if (step !== undefined) {
      if (step.width < 1 || step.height < 1) refuse(key, 'the result has no pixels')
      if (step.width * step.height > limits.maxPixels) {
        throw new VideoError(
          'too_many_pixels',
          `${key}: a ${step.width}×${step.height} frame is over the limit of ${limits.maxPixels} pixels (VIDEO_MAX_PIXELS)`,
        )
      }
      filters.push(...step.filters)
      width = step.width
      height = step.height
    }
    steps.push({ key, width, height })
  }
  if (duration > limits.maxSeconds) {
    throw new VideoError(
      'too_long',
      `The video is ${duration.toFixed(1)} s long; at most ${limits.maxSeconds} s are transformed (VIDEO_MAX_SECONDS): cut it with vid.trim(s:…,d:…)`,
    )
  }
  // H.264 and VP9 in 4:2:0 want even sides.
  if (format !== 'gif' && (width % 2 !== 0 || height % 2 !== 0)) {
    filters.push(`scale=${even(width)}:${even(height)}`)
    width = even(width)
    height = even(height)
  }
  return {
    kind: 'video',
    format: format as VideoOutputFormat,
    filters,
    width,
    height,
    start,
    duration,
    quality: Math.min(100, Math.max(1, quality)),
    steps,
  }
}
