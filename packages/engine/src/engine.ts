import { type Ai, type AiSettings, createAi, isAiOperation } from '@tessera/ai'
import {
  createHeicDecoder,
  createPdfRenderer,
  type HeicDecoder,
  type PdfRenderer,
} from '@tessera/media'
import { DPR_RANGE, type ParsedOperation } from '@tessera/url'
import sharp, { type SharpOptions } from 'sharp'
import { checkAiCost } from './ai-cost.ts'
import { fromAiError } from './ai-step.ts'
import {
  type ChainContext,
  implementationOf,
  openSource,
  runChain,
  type StepReport,
} from './chain.ts'
import { outputSizeOf, stepInputs } from './chain-geometry.ts'
import { type DecodedSource, type Decoders, decodeSource, openDecoded } from './decode.ts'
import { createDecodedSources, type DecodedCacheStats } from './decoded-cache.ts'
import { type EncodedImage, encode } from './encode.ts'
import { EngineError, MESSAGES, toEngineError } from './errors.ts'
import {
  ANIMATED_FORMATS,
  chooseOutputFormat,
  type OutputFormat,
  type OutputFormatRequest,
} from './formats.ts'
import { createLimiter } from './limiter.ts'
import type { Operation } from './operations.ts'
import { type EngineOptions, resolveOptions } from './options.ts'
import { type Clock, runSharp } from './pipeline.ts'
import { checkBytes, FAIL_ON, frameTiming, inspect, type SourceInfo } from './source.ts'
import type { OutputSettings } from './step.ts'

export type { StepReport } from './chain.ts'

/** One transformation job. */
export interface TransformRequest {
  /** The stored file's bytes. */
  input: Buffer
  /**
   * The chain, validated by `parsePattern` (typed params with defaults, catalogue entry in
   * `spec`), presets already expanded.
   */
  operations: readonly ParsedOperation[]
  /** The request's `Accept` header, read when `autoFormat` is on. */
  accept?: string
  /** The `f_auto` option: AVIF or WebP when the client accepts them. */
  autoFormat?: boolean
  /**
   * The `dpr` option (0.1–5; `auto` is resolved by the caller). It multiplies each operation's
   * own `dpr` parameter: the size of `t.resize`, the borders of `t.extend` and the sigma of
   * `t.blur`. Nothing else is scaled.
   */
  dpr?: number
  /** Loads another stored file by the id written in `t.merge(i:…)`; undefined when missing. */
  loadFile?: (fileId: string) => Promise<Buffer | undefined>
}

/** The encoded result of a transformation. */
export interface TransformResult extends EncodedImage {
  /** Each operation of the request's chain, in order, with what it found. */
  steps: StepReport[]
}

/** What `probe` reads from a file. */
export interface ProbeResult {
  /** `jpeg`, `png`, `webp`, `gif`, `avif`, `heic`, `tiff`, `svg`, `bmp`, `pdf`. */
  format: string
  /** Width as displayed (EXIF orientation applied). */
  width: number
  /** Height as displayed; of one frame for an animation. */
  height: number
  /** Frames of an animation, pages of a multi-page file or a PDF; 1 otherwise. */
  pages: number
  hasAlpha: boolean
  /** Bytes. */
  size: number
}

/** An image engine with its limits and its queue. */
export interface Engine {
  /** The resolved options. */
  readonly options: Readonly<EngineOptions>
  /**
   * Runs the chain on the input, in chain order, and encodes the result in the format
   * `chooseOutputFormat` picks.
   *
   * @throws {EngineError} only; see `EngineErrorCode`.
   */
  transform(request: TransformRequest): Promise<TransformResult>
  /** The output format `transform` will choose, known before any image work. */
  chooseOutputFormat(request: OutputFormatRequest): OutputFormat
  /**
   * Checks that `input` is an image within the limits (bytes, pixels with frames summed) and
   * that its pixel data decodes (a HEIC: that its container and header read), and reads its
   * format, size, frames (a PDF: pages) and transparency.
   *
   * @throws {EngineError} `input_too_large`, `too_many_pixels`, `unsupported_format`,
   *   `invalid_image` or `timeout`.
   */
  probe(input: Buffer): Promise<ProbeResult>
  /**
   * Refuses, before anything is queued, a chain whose AI step would take an input larger than
   * `AI_MAX_INPUT_PIXELS` or could not finish within `AI_TIMEOUT_MS` by its cost estimate; each
   * step's input is the image after the steps before it (from a `width` × `height` source at
   * `dpr`). Does nothing for a chain without an AI step.
   *
   * @throws {EngineError} `too_many_pixels`
   */
  checkAiInput(
    operations: readonly ParsedOperation[],
    width: number,
    height: number,
    dpr?: number,
  ): void
  /** What the cache of decoded sources did so far (`decodedCacheMb`, decision 023). */
  decodedStats(): DecodedCacheStats
  /** Ends the AI worker threads the engine started (not those of an `ai` it was given). */
  close(): Promise<void>
}

/** `createEngine` options: the limits, and optionally the AI service to use. */
export interface CreateEngineOptions extends Partial<EngineOptions> {
  /**
   * Runs the AI operations; by default the engine creates one (settings from the environment)
   * when the first AI operation runs.
   */
  ai?: Ai
  /**
   * Settings of the AI service the engine creates (unset ones from the environment, as
   * `resolveAiSettings` reads them); ignored when `ai` is given.
   */
  aiSettings?: Partial<AiSettings>
}

function withTimeout<T>(work: Promise<T>, clock: Clock): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new EngineError('timeout', MESSAGES.timeout(clock.timeoutMs))),
      Math.max(0, clock.deadline - Date.now()),
    )
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

function readDpr(dpr: unknown): number {
  if (dpr === undefined) return 1
  if (typeof dpr === 'number' && dpr >= DPR_RANGE.min && dpr <= DPR_RANGE.max) return dpr
  throw new EngineError('invalid_param', MESSAGES.invalidDpr)
}

/**
 * Creates an image engine. Options resolve once here. Sets libvips to one thread per image
 * (`sharp.concurrency(1)`, process-wide) so that `concurrency` pipelines use as many cores;
 * note that libuv runs at most `UV_THREADPOOL_SIZE` (default 4) sharp tasks at once.
 *
 * @throws {RangeError} for an option out of range.
 * @example
 * const engine = createEngine({ maxInputPixels: 20_000_000 })
 * const { value } = parsePattern('t.resize(w:300)~t.toFormat(f:webp)')
 * const result = await engine.transform({ input, operations: value })
 */
export function createEngine(options: CreateEngineOptions = {}): Engine {
  const { ai: given, aiSettings, ...limits } = options
  const resolved = resolveOptions(limits)
  sharp.concurrency(1)
  // Process-wide, deliberately small: each pipeline decodes its own bytes, so the cache rarely
  // hits across requests, while each cached SVG load keeps its document (issue 19 finding 2).
  sharp.cache({ memory: resolved.cacheMemoryMb, items: resolved.cacheItems, files: 0 })
  const limiter = createLimiter(resolved.concurrency)
  // The header of each input this engine has read and accepted, by the very Buffer: a burst of
  // sizes of one original (delivery keeps it in memory) reads it once, not once per render
  // (issue 25). Inputs are never written to (neither here nor by their callers, who pass stored
  // bytes); a Buffer no longer referenced leaves with its entry.
  const headers = new WeakMap<Buffer, Readonly<SourceInfo>>()
  async function inspectOnce(input: Buffer): Promise<SourceInfo> {
    const known = headers.get(input)
    if (known !== undefined) return known
    const info = await inspect(input, resolved)
    headers.set(input, info)
    return info
  }
  // The engine's own limit on `f_auto`'s AVIF (`autoAvifMaxSide`) applies to every choice.
  const pickFormat = (request: OutputFormatRequest): OutputFormat =>
    chooseOutputFormat({ ...request, autoAvifMaxSide: resolved.autoAvifMaxSide })
  // Plain still sources' pixels, kept for their next sizes (decision 023).
  const decodedSources = createDecodedSources(resolved)
  let created: Ai | undefined
  const ai = (): Ai => {
    if (given !== undefined) return given
    created ??= createAi(aiSettings)
    return created
  }
  // PDF pages and HEIC images are decoded in worker threads of their own, started on first use.
  let pdfRenderer: PdfRenderer | undefined
  let heicDecoder: HeicDecoder | undefined
  const decoders: Decoders = {
    options: resolved,
    pdf: () => {
      pdfRenderer ??= createPdfRenderer({
        maxPages: resolved.maxPdfPages,
        maxPixels: resolved.maxInputPixels,
        timeoutMs: resolved.timeoutMs,
      })
      return pdfRenderer
    },
    heic: () => {
      heicDecoder ??= createHeicDecoder({
        maxPixels: resolved.maxInputPixels,
        timeoutMs: resolved.timeoutMs,
      })
      return heicDecoder
    },
  }

  function aiSteps(operations: readonly ParsedOperation[]): number {
    return operations.filter((operation) => isAiStep(operation)).length
  }

  // Each AI step's own input (after the steps before it) against AI_MAX_INPUT_PIXELS and
  // against what it can do within AI_TIMEOUT_MS (issue 19 finding 4).
  function checkAiInput(
    operations: readonly ParsedOperation[],
    width: number,
    height: number,
    dpr = 1,
  ) {
    if (aiSteps(operations) === 0) return
    const service = ai()
    for (const input of stepInputs(operations, width, height, dpr)) {
      if (!isAiStep(input.operation)) continue
      try {
        service.checkInput(input.width, input.height)
      } catch (error) {
        throw fromAiError(error)
      }
      checkAiCost(input, service.settings.timeoutMs)
    }
  }

  // An AI step may take up to the AI time limit on top of the engine's own budget.
  async function run<T>(job: (clock: Clock) => Promise<T>, extraMs = 0): Promise<T> {
    const release = await limiter.acquire()
    const timeoutMs = resolved.timeoutMs + extraMs
    const clock = { deadline: Date.now() + timeoutMs, timeoutMs }
    const work = job(clock)
    // The slot stays taken until the work has really stopped, even after a timeout answer.
    work.then(release, release)
    try {
      return await withTimeout(work, clock)
    } catch (error) {
      throw toEngineError(error, timeoutMs)
    }
  }

  async function transform(request: TransformRequest): Promise<TransformResult> {
    // Checks that need no image work run before the job takes a slot.
    let input: Buffer
    let implementations: Operation[]
    let dpr: number
    const operations = Array.isArray(request?.operations) ? request.operations : []
    try {
      input = checkBytes(request?.input, resolved)
      implementations = operations.map(implementationOf)
      dpr = readDpr(request.dpr)
    } catch (error) {
      throw toEngineError(error, resolved.timeoutMs)
    }
    const extraMs = aiSteps(operations) * (aiSteps(operations) > 0 ? ai().settings.timeoutMs : 0)
    // PDF pages and HEIC images are decoded in their own worker threads (one at a time, each
    // within the time limit) before the job takes a pipeline slot: a slow HEIC must not hold a
    // slot that other images' renders need while it waits for its worker.
    const decoded = await decodeOutside(input, operations)
    return await run(async (clock) => {
      const source = decoded?.info ?? (await inspectOnce(input))
      checkAiInput(operations, source.width, source.height, dpr)
      const outputSize = outputSizeOf(operations, source.width, source.height, dpr)
      const format = pickFormat({
        sourceFormat: source.format,
        ...(outputSize === undefined ? {} : { outputSize }),
        operations,
        autoFormat: request.autoFormat === true,
        hasAlpha: source.alpha,
        animated: source.pages > 1,
        ...(request.accept === undefined ? {} : { accept: request.accept }),
      })
      const animated =
        source.pages > 1 &&
        (source.format === 'gif' || source.format === 'webp') &&
        ANIMATED_FORMATS.has(format) &&
        implementations.every((implementation) => implementation.animated)
      const context: ChainContext = {
        options: resolved,
        clock,
        dpr,
        depth: 0,
        loadFile: request.loadFile,
        ai,
        reports: [],
        frames: source.pages,
        decoders,
      }
      const reuse =
        decoded !== undefined || animated
          ? undefined
          : decodedSources.reuseOf(input, source, format, clock)
      const pipeline =
        decoded === undefined
          ? openSource(input, source, animated, context, reuse)
          : openDecoded(decoded, clock)
      const output: OutputSettings = { format }
      await runChain(pipeline, operations, context, output)
      const animation = animated ? frameTiming(source) : undefined
      const result = await encode(pipeline, output, resolved, animation)
      return { ...result, steps: context.reports ?? [] }
    }, extraMs)
  }

  async function decodeOutside(
    input: Buffer,
    operations: readonly ParsedOperation[],
    how: { probe?: boolean } = {},
  ): Promise<DecodedSource | undefined> {
    try {
      return await decodeSource(input, operations, decoders, how)
    } catch (error) {
      throw toEngineError(error, resolved.timeoutMs)
    }
  }

  async function probe(input: Buffer): Promise<ProbeResult> {
    const bytes = checkBytes(input, resolved)
    // A PDF's page 1 and a BMP are decoded in full (what decodes here, delivery draws); a HEIC
    // is read to its header (decoding one takes seconds). Outside the pipeline slots, as above.
    const decoded = await decodeOutside(bytes, [], { probe: true })
    return await run(async (clock) => {
      if (decoded !== undefined) {
        const { info } = decoded
        return {
          format: info.format,
          width: info.width,
          height: info.height,
          pages: decoded.pages,
          hasAlpha: info.alpha,
          size: bytes.length,
        }
      }
      const source = await inspect(bytes, resolved)
      const animated = source.pages > 1 && (source.format === 'gif' || source.format === 'webp')
      // Decoding a thumbnail reads all the data (JPEG shrinks on load, so it stays cheap) and
      // refuses truncated or corrupt files that a header read would accept.
      const options: SharpOptions = { failOn: FAIL_ON, limitInputPixels: resolved.maxInputPixels }
      if (animated) options.animated = true
      const thumbnail = sharp(bytes, options).resize({ width: 16, height: 16, fit: 'inside' })
      await runSharp(thumbnail.raw(), clock).catch((error: unknown) => {
        // Only decoding happens here: whatever fails is the file's fault.
        if (error instanceof EngineError && error.code !== 'operation_failed') throw error
        throw new EngineError('invalid_image', MESSAGES.invalidImage, { cause: error })
      })
      return {
        format: source.format,
        width: source.width,
        height: source.height,
        pages: source.pages,
        hasAlpha: source.alpha,
        size: bytes.length,
      }
    })
  }

  async function close(): Promise<void> {
    await created?.close()
    created = undefined
    await pdfRenderer?.close()
    pdfRenderer = undefined
    await heicDecoder?.close()
    heicDecoder = undefined
  }

  return {
    options: resolved,
    transform,
    chooseOutputFormat: pickFormat,
    probe,
    checkAiInput,
    decodedStats: () => decodedSources.stats(),
    close,
  }
}

// AI operations and the crop whose gravity needs a model.
function isAiStep(operation: ParsedOperation): boolean {
  const key = operation.spec?.key
  if (key === undefined) return false
  if (key === 'ic.crop') {
    const gravity = operation.params.g
    return gravity === 'face' || gravity === 'object' || gravity === 'foreground'
  }
  return isAiOperation(key)
}
