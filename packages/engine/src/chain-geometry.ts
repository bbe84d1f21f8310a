// The size of the image each step of a chain receives, known before anything runs: what an AI
// step costs and whether it fits AI_MAX_INPUT_PIXELS depend on the pixels after the steps before
// it, not on the stored file (issue 19 finding 4, issue 20: `t.resize(w:1200)~erase.bg()` of a
// 30 MP photo gives the model 1 MP). Steps whose size is only known by running them (trim, smart
// crop without a size) are taken at their input's size, an upper bound.
import type { ParsedOperation } from '@tessera/url'
import { type Fit, resizedSize, rotatedSize, type Size } from './geometry.ts'
import { createParams, type Params } from './params.ts'

const FITS: readonly string[] = ['cover', 'contain', 'fill', 'inside', 'outside']
const UPSCALES: Readonly<Record<string, number>> = { '2x': 2, '4x': 4, '8x': 8 }

/** One step with the size of the image it receives. */
export interface StepInput {
  operation: ParsedOperation
  params: Params
  width: number
  height: number
}

function scaled(value: number, scale: number): number {
  return value > 0 ? Math.max(1, Math.round(value * scale)) : 0
}

// The size after one step, from its parameters.
function sizeAfter(key: string, params: Params, size: Size, dpr: number): Size {
  switch (key) {
    case 't.resize': {
      const scale = params.number('dpr') * dpr
      const width = scaled(params.integer('w'), scale)
      const height = scaled(params.integer('h'), scale)
      const fit = params.string('f')
      if (width === 0 && height === 0) return size
      return resizedSize(
        size.width,
        size.height,
        width,
        height,
        (FITS.includes(fit) ? fit : 'cover') as Fit,
      )
    }
    case 't.extend': {
      const scale = params.number('dpr') * dpr
      const side = (id: string) => Math.max(0, Math.round(params.integer(id) * scale))
      return {
        width: size.width + side('l') + side('r'),
        height: size.height + side('t') + side('b'),
      }
    }
    case 't.extract': {
      const width = Math.min(params.integer('w'), size.width)
      const height = Math.min(params.integer('h'), size.height)
      return width > 0 && height > 0 ? { width, height } : size
    }
    case 't.rotate': {
      const angle = ((params.integer('a') % 360) + 360) % 360
      if (angle === 90 || angle === 270) return { width: size.height, height: size.width }
      return angle % 180 === 0 ? size : rotatedSize(size, angle)
    }
    case 'ic.crop': {
      const width = params.integer('w')
      const height = params.integer('h')
      return width > 0 && height > 0 ? { width, height } : size
    }
    case 'sr.upscale': {
      const scale = UPSCALES[params.string('t')] ?? 2
      return { width: size.width * scale, height: size.height * scale }
    }
    case 'qr.generate':
      return { width: params.integer('w'), height: params.integer('h') }
    default:
      return size
  }
}

/**
 * Each step of `operations` with the size of its input, starting from `width` × `height`; stops
 * at a step whose parameters do not read (the run reports that error itself).
 */
export function stepInputs(
  operations: readonly ParsedOperation[],
  width: number,
  height: number,
  dpr = 1,
): StepInput[] {
  const inputs: StepInput[] = []
  let size: Size = { width, height }
  for (const operation of operations) {
    const spec = operation.spec
    if (spec === undefined) break
    let params: Params
    let next: Size
    try {
      params = createParams(spec, operation.params)
      next = sizeAfter(spec.key, params, size, dpr)
    } catch {
      break
    }
    inputs.push({ operation, params, width: size.width, height: size.height })
    size = next
  }
  return inputs
}

/**
 * The size of the chain's result from a `width` × `height` source, as `stepInputs` reads the
 * steps (an upper bound where a step's size is only known by running it); undefined when a step
 * is unknown or its parameters do not read.
 */
export function outputSizeOf(
  operations: readonly ParsedOperation[],
  width: number,
  height: number,
  dpr = 1,
): Size | undefined {
  const inputs = stepInputs(operations, width, height, dpr)
  if (inputs.length < operations.length) return undefined
  const last = inputs.at(-1)
  if (last === undefined) return { width, height }
  return sizeAfter(last.operation.spec?.key ?? '', last.params, last, dpr)
}
