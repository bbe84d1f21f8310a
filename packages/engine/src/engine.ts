import { type Ai, type AiSettings, createAi, isAiOperation, UNAVAILABLE } from '@tessera/ai'
import {
  DPR_RANGE,
  type OperationSpec,
  type ParamValue,
  type ParsedOperation,
  parsePattern,
} from '@tessera/url'
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp'
import { checkAiCost } from './ai-cost.ts'
import { fromAiError } from './ai-step.ts'
import { encodeBmp } from './bmp.ts'
import { stepInputs } from './chain-geometry.ts'
import { EngineError, MESSAGES, toEngineError } from './errors.ts'
import {
  ANIMATED_FORMATS,
  CONTENT_TYPES,
  chooseOutputFormat,
  type OutputFormat,
  type OutputFormatRequest,
} from './formats.ts'
import { createLimiter } from './limiter.ts'
import { getOperation, type Operation } from './operations.ts'
import { type EngineOptions, resolveOptions } from './options.ts'
import { checkOutputBytes } from './output-size.ts'
import { createParams } from './params.ts'
import { type Clock, framesOf, Pipeline, type RawImage, runSharp, toRawImage } from './pipeline.ts'
import type { OutputSettings, Step } from './step.ts'
import { checkSvgElements, checkSvgPixels, mayBeSvg } from './svg-limits.ts'

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

/**
 * One operation of the chain as it ran, in the shape of a step of Pixelbin's transformation
 * context (`{ context: { steps: [...] } }`).
 */
export interface StepReport {
  /** The catalogue key, `ocr.extract`. */
  name: string
  /** The plugin, `ocr`. */
  identifier: string
  /** The method, `extract`. */
  operation: string
  /** The parameters as written (catalogue defaults are not filled in). */
  params: Record<string, ParamValue>
  /** What a detection found; null for operations that only change the image. */
  data: Record<string, unknown> | null
  /** The image after the step. */
  width: number
  height: number
  hasAlpha: boolean
}

/** The encoded result of a transformation. */
export interface TransformResult {
  data: Buffer
  format: OutputFormat
  contentType: string
  width: number
  /** Height of one frame for an animation. */
  height: number
  /** Each operation of the request's chain, in order, with what it found. */
  steps: StepReport[]
}

/** What `probe` reads from a file. */
export interface ProbeResult {
  /** `jpeg`, `png`, `webp`, `gif`, `avif`, `heic`, `tiff`, `svg`. */
  format: string
  /** Width as displayed (EXIF orientation applied). */
  width: number
  /** Height as displayed; of one frame for an animation. */
  height: number
  /** Frames of an animation, pages of a multi-page file; 1 otherwise. */
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
   * that its pixel data decodes, and reads its format, size, frames and transparency.
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

// Sharp's readable formats; anything else sharp may recognise is refused as unsupported.
const READABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'svg', 'tiff', 'heif'])
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 }
// Sharp fails on any decoding error, including truncated data, but not on mere warnings
// (which many camera files trigger).
const FAIL_ON = 'error'

interface SourceInfo {
  format: string
  width: number
  height: number
  pages: number
  alpha: boolean
  delay?: number[]
  loop?: number
}

interface ChainContext {
  options: Readonly<EngineOptions>
  clock: Clock
  dpr: number
  depth: number
  loadFile: ((fileId: string) => Promise<Buffer | undefined>) | undefined
  ai: () => Ai
  /** The request's own chain reports its steps here; merged chains report nothing. */
  reports: StepReport[] | undefined
}

// Formats the bytes start with that sharp cannot read, to tell "unsupported" from "not an image".
function sniffUnsupported(input: Buffer): string | undefined {
  const ascii = input.subarray(0, 12).toString('latin1')
  if (ascii.startsWith('BM')) return 'bmp'
  if (input.readUInt32BE(0) === 0x00000100) return 'ico'
  if (ascii.startsWith('%PDF')) return 'pdf'
  if (ascii.slice(4, 8) === 'ftyp') return 'heic'
  return undefined
}

function checkBytes(input: unknown, options: Readonly<EngineOptions>): Buffer {
  if (!Buffer.isBuffer(input)) throw new EngineError('invalid_image', MESSAGES.notBuffer)
  if (input.length > options.maxInputBytes) {
    throw new EngineError(
      'input_too_large',
      MESSAGES.inputTooLarge(input.length, options.maxInputBytes),
    )
  }
  if (input.length < 4) throw new EngineError('invalid_image', MESSAGES.invalidImage)
  return input
}

function formatName(metadata: Metadata): string {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : 'heic'
  return metadata.format
}

// Reads the header only, and refuses what the engine will not decode.
async function inspect(input: Buffer, options: Readonly<EngineOptions>): Promise<SourceInfo> {
  let metadata: Metadata
  // Before librsvg parses it (reading an SVG's size parses all of it): memory grows with elements.
  const svgChecked = mayBeSvg(input)
  if (svgChecked) checkSvgElements(input, options)
  try {
    // A header read decodes no pixels: the pixel limit is checked below, frames summed.
    metadata = await sharp(input, { failOn: FAIL_ON, limitInputPixels: false }).metadata()
  } catch (error) {
    const format = sniffUnsupported(input)
    if (format !== undefined) {
      throw new EngineError('unsupported_format', MESSAGES.unsupportedFormat(format), {
        cause: error,
      })
    }
    throw new EngineError('invalid_image', MESSAGES.invalidImage, { cause: error })
  }
  const format = formatName(metadata)
  if (!READABLE.has(metadata.format) || format === 'heic') {
    throw new EngineError('unsupported_format', MESSAGES.unsupportedFormat(format))
  }
  const width = metadata.autoOrient?.width ?? metadata.width
  const height = metadata.autoOrient?.height ?? metadata.height
  if (!(width > 0 && height > 0)) throw new EngineError('invalid_image', MESSAGES.invalidImage)
  const animation = metadata.format === 'gif' || metadata.format === 'webp'
  const pages = Math.max(1, metadata.pages ?? 1)
  const pixels = width * height * (animation ? pages : 1)
  if (pixels > options.maxInputPixels) {
    throw new EngineError('too_many_pixels', MESSAGES.tooManyPixels(pixels, options.maxInputPixels))
  }
  if (format === 'svg') {
    if (!svgChecked) checkSvgElements(input, options)
    checkSvgPixels(width, height, options)
  }
  const info: SourceInfo = { format, width, height, pages, alpha: metadata.hasAlpha }
  if (metadata.delay !== undefined) info.delay = metadata.delay
  if (metadata.loop !== undefined) info.loop = metadata.loop
  return info
}

function specOf(operation: ParsedOperation): OperationSpec {
  if (operation.spec === undefined) {
    throw new EngineError('not_runnable', MESSAGES.noSpec(String(operation.text)))
  }
  return operation.spec
}

function implementationOf(operation: ParsedOperation): Operation {
  const spec = specOf(operation)
  const reason = UNAVAILABLE[spec.key]
  if (reason !== undefined) {
    throw new EngineError('model_unavailable', MESSAGES.modelUnavailable(spec.key, reason))
  }
  const implementation = getOperation(spec.key)
  if (implementation === undefined) {
    throw new EngineError('not_runnable', MESSAGES.notRunnable(spec.key))
  }
  return implementation
}

function checkSize(width: number, height: number, pages: number, options: Readonly<EngineOptions>) {
  const max = options.maxOutputDimension
  if (width > max || height > max) {
    throw new EngineError('output_too_large', MESSAGES.outputTooLarge(width, height, max))
  }
  // An animation may not hold more pixels than the largest still image.
  const pixels = width * height * pages
  if (pixels > max * max) {
    throw new EngineError('output_too_large', MESSAGES.outputTooManyPixels(pixels, max * max))
  }
}

// A `tr` value is a pattern, written as is or in base64 (its parentheses and commas cannot
// appear in a parameter value otherwise).
function readPattern(value: string): readonly ParsedOperation[] {
  if (value === '') return []
  let pattern = value
  if (!value.includes('(') && value !== 'original') {
    pattern = Buffer.from(value, 'base64url').toString('utf8')
    if (!pattern.includes('(')) {
      throw new EngineError('invalid_param', MESSAGES.mergePattern('not a transformation pattern'))
    }
  }
  const { value: operations, issues } = parsePattern(pattern)
  const issue = issues[0]
  if (issue !== undefined) {
    throw new EngineError('invalid_param', MESSAGES.mergePattern(issue.message))
  }
  return operations
}

async function runChain(
  pipeline: Pipeline,
  operations: readonly ParsedOperation[],
  context: ChainContext,
  output: OutputSettings,
): Promise<void> {
  for (const operation of operations) {
    const implementation = implementationOf(operation)
    if (Date.now() > context.clock.deadline) {
      throw new EngineError('timeout', MESSAGES.timeout(context.clock.timeoutMs))
    }
    let data: Record<string, unknown> | null = null
    const step = createStep(operation, pipeline, context, output, (found) => {
      data = found
    })
    await implementation.run(step)
    const spec = specOf(operation)
    context.reports?.push({
      name: spec.key,
      identifier: spec.plugin,
      operation: spec.method,
      params: { ...operation.params },
      data,
      width: pipeline.width,
      height: pipeline.height,
      hasAlpha: pipeline.alpha,
    })
  }
}

function createStep(
  operation: ParsedOperation,
  pipeline: Pipeline,
  context: ChainContext,
  output: OutputSettings,
  report: (data: Record<string, unknown>) => void,
): Step {
  const spec = specOf(operation)
  return {
    key: spec.key,
    params: createParams(spec, operation.params),
    dpr: context.dpr,
    image: pipeline,
    output,
    depth: context.depth,
    checkSize: (width, height) => checkSize(width, height, pipeline.pages, context.options),
    render: async (image: Sharp) => {
      const { data, info } = await runSharp(image.raw({ depth: 'uchar' }), context.clock)
      return toRawImage(data, info)
    },
    loadImage: (fileId, pattern) => loadImage(fileId, pattern, context),
    ai: context.ai,
    maxOutputDimension: context.options.maxOutputDimension,
    report,
  }
}

async function loadImage(
  fileId: string,
  pattern: string,
  context: ChainContext,
): Promise<RawImage> {
  const operations = readPattern(pattern)
  for (const operation of operations) implementationOf(operation)
  if (context.loadFile === undefined) throw new EngineError('missing_file', MESSAGES.noFileLoader)
  let loaded: Buffer | undefined
  try {
    loaded = await context.loadFile(fileId)
  } catch (error) {
    throw new EngineError('operation_failed', MESSAGES.loadFailed(fileId), { cause: error })
  }
  if (loaded === undefined) throw new EngineError('missing_file', MESSAGES.missingFile(fileId))
  const input = checkBytes(loaded, context.options)
  const source = await inspect(input, context.options)
  const pipeline = openSource(input, source, false, context)
  const output: OutputSettings = { format: 'png' }
  const nested = { ...context, depth: context.depth + 1, reports: undefined }
  await runChain(pipeline, operations, nested, output)
  return await pipeline.raw()
}

function openSource(
  input: Buffer,
  source: SourceInfo,
  animated: boolean,
  context: ChainContext,
): Pipeline {
  const options: SharpOptions = {
    autoOrient: true,
    failOn: FAIL_ON,
    limitInputPixels: context.options.maxInputPixels,
  }
  if (animated) options.animated = true
  return new Pipeline(
    { kind: 'encoded', input, options },
    {
      width: source.width,
      height: source.height,
      pages: animated ? source.pages : 1,
      alpha: source.alpha || animated,
    },
    context.clock,
  )
}

function configureOutput(
  image: Sharp,
  output: OutputSettings,
  options: Readonly<EngineOptions>,
  animation: { delay?: number[]; loop?: number } | undefined,
): Sharp {
  let configured = image
  if (output.density !== undefined) {
    // withDensity keeps the input's EXIF; an empty withExif drops it again.
    configured = configured.withDensity(output.density).withExif({})
  }
  const quality = output.quality
  const frames = animation ?? {}
  switch (output.format) {
    case 'jpeg':
      return configured.jpeg({ quality: quality ?? 80, mozjpeg: false })
    case 'png': {
      const palette = output.paletteQuality
      return configured.png(
        palette !== undefined && palette < 100
          ? { compressionLevel: 6, palette: true, quality: palette }
          : { compressionLevel: 6 },
      )
    }
    case 'webp':
      return configured.webp({ quality: quality ?? 80, effort: 4, ...frames })
    case 'avif':
      return configured.avif({ quality: quality ?? 50, effort: options.avifEffort })
    case 'heif':
      return configured.heif({
        compression: 'av1',
        quality: quality ?? 50,
        effort: options.avifEffort,
      })
    case 'gif':
      return configured.gif(frames)
    case 'tiff':
      return configured.tiff({ compression: 'lzw' })
    default:
      throw new EngineError('unsupported_format', MESSAGES.unsupportedFormat(output.format))
  }
}

async function encode(
  pipeline: Pipeline,
  output: OutputSettings,
  options: Readonly<EngineOptions>,
  animation: { delay?: number[]; loop?: number } | undefined,
): Promise<TransformResult> {
  const format = output.format
  checkOutputBytes(format, pipeline, options.maxOutputBytes)
  if (format === 'bmp') {
    const image = await pipeline.raw()
    const data = encodeBmp(image)
    return {
      data,
      format,
      contentType: CONTENT_TYPES.bmp,
      width: image.width,
      height: image.height,
      steps: [],
    }
  }
  if (format === 'jpeg' && pipeline.alpha) {
    // JPEG has no alpha: show transparent areas on white rather than libvips' black.
    const next = { width: pipeline.width, height: pipeline.height, alpha: false }
    await pipeline.pipe('flatten', (image) => image.flatten({ background: WHITE }), next)
  }
  const { data, info } = await pipeline.encode((image) =>
    configureOutput(image, output, options, animation),
  )
  const { height } = framesOf(info)
  return { data, format, contentType: CONTENT_TYPES[format], width: info.width, height, steps: [] }
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
  let created: Ai | undefined
  const ai = (): Ai => {
    if (given !== undefined) return given
    created ??= createAi(aiSettings)
    return created
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
    return await run(async (clock) => {
      const source = await inspect(input, resolved)
      checkAiInput(operations, source.width, source.height, dpr)
      const format = chooseOutputFormat({
        sourceFormat: source.format,
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
      }
      const pipeline = openSource(input, source, animated, context)
      const output: OutputSettings = { format }
      await runChain(pipeline, operations, context, output)
      const animation = animated ? frameTiming(source) : undefined
      const result = await encode(pipeline, output, resolved, animation)
      return { ...result, steps: context.reports ?? [] }
    }, extraMs)
  }

  async function probe(input: Buffer): Promise<ProbeResult> {
    const bytes = checkBytes(input, resolved)
    return await run(async (clock) => {
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
  }

  return { options: resolved, transform, chooseOutputFormat, probe, checkAiInput, close }
}

function frameTiming(source: SourceInfo): { delay?: number[]; loop?: number } {
  const timing: { delay?: number[]; loop?: number } = {}
  if (source.delay !== undefined && source.delay.length === source.pages)
    timing.delay = source.delay
  if (source.loop !== undefined) timing.loop = source.loop
  return timing
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
