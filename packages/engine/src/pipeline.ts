import sharp, { type OutputInfo, type Sharp, type SharpOptions } from 'sharp'
import { EngineError, MESSAGES, toEngineError } from './errors.ts'

/** Decoded pixels: 8-bit sRGB (or grey), unpremultiplied, frames stacked top to bottom. */
export interface RawImage {
  data: Buffer
  width: number
  /** Height of one frame. */
  height: number
  channels: 1 | 2 | 3 | 4
  /** Number of frames (1 for a still image). */
  pages: number
}

/**
 * Where a step runs inside one sharp pipeline. Sharp applies its operations in a fixed order
 * whatever the call order (trim, extract, flatten, greyscale, resize, flip, rotate, extract,
 * extend, median, blur, modulate, sharpen, linear, normalise, tint, negate), so a step joins the
 * running pipeline only when sharp would run it after every step already there; otherwise the
 * pipeline is first materialised to raw pixels and a new one starts from them.
 */
export type Stage =
  | 'trim'
  | 'extract'
  | 'flatten'
  | 'grey'
  | 'flip'
  | 'flop'
  | 'rotate90'
  | 'resize'
  | 'rotate'
  | 'extend'
  | 'median'
  | 'blur'
  | 'modulate'
  | 'sharpen'
  | 'linear'
  | 'normalise'
  | 'tint'
  | 'negate'

type ResolvedStage = Exclude<Stage, 'extract' | 'rotate90'> | 'extract-pre' | 'extract-post'

// Ranks follow sharp's pipeline.cc. flip/flop/rotate90 run between the shrink and the crop of a
// resize, so they never follow a resize in one pipeline (and `fits` keeps them from preceding
// one either).
const RANKS: Readonly<Record<ResolvedStage | 'rotate90', number>> = {
  trim: 10,
  'extract-pre': 20,
  flatten: 30,
  grey: 35,
  flip: 50,
  flop: 51,
  rotate90: 55,
  resize: 60,
  rotate: 65,
  'extract-post': 70,
  extend: 80,
  median: 90,
  blur: 100,
  modulate: 110,
  sharpen: 120,
  linear: 140,
  normalise: 150,
  tint: 160,
  negate: 170,
}

/** The size (of one frame) and transparency after a step. */
export interface Geometry {
  width: number
  height: number
  alpha?: boolean
}

/** Options of `Pipeline.pipe`. */
export interface PipeOptions {
  /**
   * The step fills new pixels with a colour (contain, extend, rotate by an angle): sharp would
   * paint it before an earlier flatten or greyscale ran, so such a step starts a new pipeline.
   */
  paints?: boolean
  /**
   * How much a resize shrinks its most shrunk axis (input over output size): sharp decodes a
   * JPEG or WebP smaller when it shrinks enough (shrink-on-load). A resize without it is taken
   * to shrink on load.
   */
  shrink?: number
}

/**
 * The decoded pixels of an encoded source, when kept across jobs (decoded-cache.ts): a pipeline
 * that would decode the source whole starts from them instead, with the same steps.
 */
export interface Reuse {
  /** The least shrink of a resize at which sharp decodes the source smaller (shrink-on-load). */
  shrinkOnLoad: number
  /** The pixels, when kept (or decoded to be kept now); undefined to read the input. */
  pixels: () => Promise<RawImage | undefined>
}

/** Where a pipeline reads from. */
export type Source =
  | { kind: 'encoded'; input: Buffer; options: SharpOptions; reuse?: Reuse }
  | { kind: 'raw'; image: RawImage }

/** The time budget of a job. */
export interface Clock {
  /** `Date.now()` value after which the job fails with `timeout`. */
  deadline: number
  timeoutMs: number
}

interface Segment {
  image: Sharp
  rank: number
  stages: Set<string>
  /** Whether the segment decodes the encoded input (so a failure may be the file's fault). */
  decodes: boolean
  /** The steps as applied, to apply them again on kept pixels of the source. */
  applied: Array<(image: Sharp) => Sharp>
  /** The largest shrink of its resizes (Infinity: not known). */
  shrink: number
}

/** Reads `info` of a raw or encoded result into frame height and frame count. */
export function framesOf(info: OutputInfo): { height: number; pages: number } {
  const pageHeight = info.pageHeight
  if (pageHeight === undefined || pageHeight <= 0 || pageHeight >= info.height) {
    return { height: info.height, pages: 1 }
  }
  return { height: pageHeight, pages: Math.round(info.height / pageHeight) }
}

/** Opens sharp on raw pixels. */
export function openRaw(image: RawImage): Sharp {
  const shape = { width: image.width, height: image.height * image.pages, channels: image.channels }
  if (image.pages === 1) return sharp(image.data, { raw: shape, limitInputPixels: false })
  // Without `animated`, sharp would treat the stacked frames as one tall image.
  const raw = { ...shape, pageHeight: image.height }
  return sharp(image.data, { raw, animated: true, limitInputPixels: false })
}

/** Runs a sharp instance to a buffer within the job's time budget; errors become EngineErrors. */
export async function runSharp(
  image: Sharp,
  clock: Clock,
): Promise<{ data: Buffer; info: OutputInfo }> {
  const remaining = clock.deadline - Date.now()
  if (remaining <= 0) throw new EngineError('timeout', MESSAGES.timeout(clock.timeoutMs))
  try {
    return await image
      .timeout({ seconds: Math.max(1, Math.ceil(remaining / 1000)) })
      .toBuffer({ resolveWithObject: true })
  } catch (error) {
    throw toEngineError(error, clock.timeoutMs)
  }
}

/** Converts raw output of sharp to a `RawImage`. */
export function toRawImage(data: Buffer, info: OutputInfo): RawImage {
  const { height, pages } = framesOf(info)
  return { data, width: info.width, height, channels: info.channels, pages }
}

/**
 * Runs a chain of steps in order on one image, fusing consecutive steps into one sharp pipeline
 * where sharp's own order agrees with the chain's (a lone resize is one pipeline from the
 * encoded input to the encoded output), and materialising raw pixels between steps where not.
 */
export class Pipeline {
  /** Width of the image after the steps so far. */
  width: number
  /** Height of one frame after the steps so far. */
  height: number
  /** Number of frames. */
  pages: number
  /** Whether the image has (or may have) an alpha channel. */
  alpha: boolean
  /** What sharp said of the last run to raw pixels (trim's offsets among it). */
  lastInfo: OutputInfo | undefined
  private source: Source
  private segment: Segment | undefined
  private readonly clock: Clock

  constructor(
    source: Source,
    geometry: { width: number; height: number; pages: number; alpha: boolean },
    clock: Clock,
  ) {
    this.source = source
    this.width = geometry.width
    this.height = geometry.height
    this.pages = geometry.pages
    this.alpha = geometry.alpha
    this.clock = clock
  }

  /**
   * Adds a step. `next` is the size after it, or undefined when it cannot be known before
   * running (trim, rotation by an angle): the pipeline then runs at once.
   */
  async pipe(
    stage: Stage,
    apply: (image: Sharp) => Sharp,
    next: Geometry | undefined,
    options: PipeOptions = {},
  ): Promise<void> {
    if (this.segment !== undefined && !this.fits(this.segment, stage, options)) await this.raw()
    const segment = this.segment ?? this.open()
    const resolved = this.resolve(segment, stage)
    try {
      segment.image = apply(segment.image)
    } catch (error) {
      throw toEngineError(error, this.clock.timeoutMs)
    }
    segment.applied.push(apply)
    if (stage === 'resize') segment.shrink = Math.max(segment.shrink, options.shrink ?? Infinity)
    segment.rank = RANKS[resolved]
    segment.stages.add(resolved === 'rotate90' ? 'rotate' : resolved)
    this.segment = segment
    if (next === undefined) {
      await this.raw()
      return
    }
    this.width = next.width
    this.height = next.height
    if (next.alpha !== undefined) this.alpha = next.alpha
  }

  /** Runs the steps so far and returns the pixels; later steps start from them. */
  async raw(): Promise<RawImage> {
    if (this.segment === undefined && this.source.kind === 'raw') return this.source.image
    const segment = this.segment ?? this.open()
    this.segment = undefined
    const { data, info } = await this.run(segment, segment.image.raw({ depth: 'uchar' }), (image) =>
      image.raw({ depth: 'uchar' }),
    )
    this.lastInfo = info
    const raw = toRawImage(data, info)
    this.replace(raw)
    return raw
  }

  /** A new pipeline on `image` (one frame of this one, say), within the same time budget. */
  fork(image: RawImage): Pipeline {
    const alpha = image.channels === 2 || image.channels === 4
    const geometry = { width: image.width, height: image.height, pages: image.pages, alpha }
    return new Pipeline({ kind: 'raw', image }, geometry, this.clock)
  }

  /** Continues from `image` (the result of a step that worked on raw pixels). */
  replace(image: RawImage): void {
    this.segment = undefined
    this.source = { kind: 'raw', image }
    this.width = image.width
    this.height = image.height
    this.pages = image.pages
    this.alpha = image.channels === 2 || image.channels === 4
  }

  /** Runs the remaining steps with `configure` choosing the output encoding. */
  async encode(configure: (image: Sharp) => Sharp): Promise<{ data: Buffer; info: OutputInfo }> {
    const segment = this.segment ?? this.open()
    this.segment = undefined
    let configured: Sharp
    try {
      configured = configure(segment.image)
    } catch (error) {
      throw toEngineError(error, this.clock.timeoutMs)
    }
    return await this.run(segment, configured, configure)
  }

  // libvips' decoding errors do not all name the loader: when a pipeline that decodes the input
  // fails for no known reason, a bare decode tells a broken file from a failed operation.
  private async run(segment: Segment, image: Sharp, end: (image: Sharp) => Sharp) {
    const kept = await this.keptPixels(segment)
    if (kept !== undefined) {
      // The same steps on the same pixels: sharp decodes the source whole here either way.
      let rebuilt: Sharp
      try {
        rebuilt = end(segment.applied.reduce((next, apply) => apply(next), openRaw(kept)))
      } catch (error) {
        throw toEngineError(error, this.clock.timeoutMs)
      }
      return await runSharp(rebuilt, this.clock)
    }
    try {
      return await runSharp(image, this.clock)
    } catch (error) {
      const source = this.source
      if (
        segment.decodes &&
        source.kind === 'encoded' &&
        error instanceof EngineError &&
        error.code === 'operation_failed' &&
        !(await this.decodable(source))
      ) {
        throw new EngineError('invalid_image', MESSAGES.invalidImage, { cause: error.cause })
      }
      throw error
    }
  }

  private async keptPixels(segment: Segment): Promise<RawImage | undefined> {
    const source = this.source
    if (!segment.decodes || source.kind !== 'encoded' || source.reuse === undefined) return
    if (segment.shrink >= source.reuse.shrinkOnLoad) return
    return await source.reuse.pixels()
  }

  private async decodable(source: { input: Buffer; options: SharpOptions }): Promise<boolean> {
    const thumbnail = sharp(source.input, source.options)
      .resize({ width: 16, height: 16, fit: 'inside' })
      .raw()
    return await runSharp(thumbnail, this.clock).then(
      () => true,
      () => false,
    )
  }

  private open(): Segment {
    const source = this.source
    const image =
      source.kind === 'encoded' ? sharp(source.input, source.options) : openRaw(source.image)
    const segment = {
      image,
      rank: 0,
      stages: new Set<string>(),
      decodes: source.kind === 'encoded',
      applied: [],
      shrink: 0,
    }
    this.segment = segment
    return segment
  }

  private resolve(segment: Segment, stage: Stage): ResolvedStage | 'rotate90' {
    if (stage !== 'extract') return stage
    const post = segment.stages.has('resize') || segment.stages.has('extract-pre')
    return post ? 'extract-post' : 'extract-pre'
  }

  private fits(segment: Segment, stage: Stage, options: PipeOptions): boolean {
    const resolved = this.resolve(segment, stage)
    const stages = segment.stages
    if (stages.has(resolved === 'rotate90' ? 'rotate' : resolved)) return false
    if (RANKS[resolved] <= segment.rank) return false
    const turned = stages.has('flip') || stages.has('flop') || stages.has('rotate')
    // Flipping or turning before a resize in one pipeline samples the pixel grid half a pixel
    // off, and sharp would even move a rotation before an earlier trim or extract.
    if (resolved === 'resize' && turned) return false
    // A second extract would move the rotation before the first one.
    if (resolved === 'extract-post' && stages.has('rotate')) return false
    if (options.paints === true && (stages.has('flatten') || stages.has('grey'))) return false
    return true
  }
}
