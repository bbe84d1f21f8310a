import type { Ai } from '@tessera/ai'
import type { Sharp } from 'sharp'
import type { OutputFormat } from './formats.ts'
import type { Params } from './params.ts'
import type { Pipeline, RawImage } from './pipeline.ts'

/** Output settings the chain changes (`t.compress`, `t.toFormat`, `t.density`). */
export interface OutputSettings {
  /** Chosen before the chain runs, by `chooseOutputFormat`. */
  readonly format: OutputFormat
  /** Quality 1–100 of lossy formats; the format's default when unset. */
  quality?: number
  /** Set by `t.compress`: a PNG is quantised to a palette at this quality. */
  paletteQuality?: number
  /** Pixels per inch written in the metadata. */
  density?: number
}

/** What an operation implementation works with. */
export interface Step {
  /** The operation's catalogue key (`t.resize`). */
  readonly key: string
  readonly params: Params
  /** The request's device pixel ratio (1 when not given). */
  readonly dpr: number
  /** The image so far; `pipe` adds sharp steps, `raw` materialises, `replace` swaps pixels. */
  readonly image: Pipeline
  readonly output: OutputSettings
  /** How many merges deep this chain runs (0 for the request's own chain). */
  readonly depth: number
  /**
   * Refuses a result or canvas larger than the engine's limits, before any work.
   *
   * @throws {EngineError} `output_too_large`
   */
  checkSize(width: number, height: number): void
  /** Runs a sharp instance (for work on pixels outside the chain) within the job's budget. */
  render(image: Sharp): Promise<RawImage>
  /**
   * Loads another stored file for `t.merge`, checks it like an input, and applies `pattern`
   * (a transformation pattern, plain or base64) to it.
   */
  loadImage(fileId: string, pattern: string): Promise<RawImage>
  /** The AI service (created on first use when the engine was given none). */
  ai(): Ai
  /** Most pixels per side of a result (the engine's `maxOutputDimension`). */
  readonly maxOutputDimension: number
  /** Records what the step found (a detection's result) for the transformation context. */
  report(data: Record<string, unknown>): void
  /** Frames of the source (1 for a still): an AI step sees only the first and says so. */
  readonly sourceFrames: number
}
