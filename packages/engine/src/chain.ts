// Running a parsed chain on a pipeline, step by step, each operation by its catalogue key; a
// merged file's own chain runs the same way, nested.
import type { Ai } from '@tessera/ai'
import { UNAVAILABLE } from '@tessera/ai'
import {
  type OperationSpec,
  type ParamValue,
  type ParsedOperation,
  parsePattern,
} from '@tessera/url'
import type { Sharp, SharpOptions } from 'sharp'
import { type Decoders, decodeSource, openDecoded } from './decode.ts'
import { EngineError, MESSAGES } from './errors.ts'
import { getOperation, type Operation } from './operations.ts'
import type { EngineOptions } from './options.ts'
import { createParams } from './params.ts'
import {
  type Clock,
  Pipeline,
  type RawImage,
  type Reuse,
  runSharp,
  toRawImage,
} from './pipeline.ts'
import { checkBytes, FAIL_ON, inspect, type SourceInfo } from './source.ts'
import type { OutputSettings, Step } from './step.ts'

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

/** What every step of one job shares. */
export interface ChainContext {
  options: Readonly<EngineOptions>
  clock: Clock
  dpr: number
  depth: number
  loadFile: ((fileId: string) => Promise<Buffer | undefined>) | undefined
  ai: () => Ai
  /** The request's own chain reports its steps here; merged chains report nothing. */
  reports: StepReport[] | undefined
  /** Frames of the chain's source. */
  frames?: number
  /** Decoders of what sharp cannot read (a merged PDF, HEIC or BMP). */
  decoders?: Decoders
}

function specOf(operation: ParsedOperation): OperationSpec {
  if (operation.spec === undefined) {
    throw new EngineError('not_runnable', MESSAGES.noSpec(String(operation.text)))
  }
  return operation.spec
}

export function implementationOf(operation: ParsedOperation): Operation {
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

export async function runChain(
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
    sourceFrames: context.frames ?? 1,
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
  // A merged PDF (its page 1), HEIC or BMP is decoded like a source.
  const decoded =
    context.decoders === undefined ? undefined : await decodeSource(input, [], context.decoders)
  const pipeline =
    decoded === undefined
      ? openSource(input, await inspect(input, context.options), false, context)
      : openDecoded(decoded, context.clock)
  const output: OutputSettings = { format: 'png' }
  const nested = { ...context, depth: context.depth + 1, reports: undefined }
  await runChain(pipeline, operations, nested, output)
  return await pipeline.raw()
}

export function openSource(
  input: Buffer,
  source: SourceInfo,
  animated: boolean,
  context: ChainContext,
  reuse?: Reuse,
): Pipeline {
  const options: SharpOptions = {
    autoOrient: true,
    failOn: FAIL_ON,
    limitInputPixels: context.options.maxInputPixels,
  }
  if (animated) options.animated = true
  return new Pipeline(
    reuse === undefined
      ? { kind: 'encoded', input, options }
      : { kind: 'encoded', input, options, reuse },
    {
      width: source.width,
      height: source.height,
      pages: animated ? source.pages : 1,
      alpha: source.alpha || animated,
    },
    context.clock,
  )
}
