import { AI_OPERATIONS } from '@tessera/ai'
import type { ExtendWith, KernelEnum } from 'sharp'
import { runAiStep } from './ai-step.ts'
import { EngineError, MESSAGES } from './errors.ts'
import { QUALITY_WORDS } from './formats.ts'
import { frameWise, trimFrames } from './frames.ts'
import { clampRegion, type Fit, resizedSize, rotatedSize } from './geometry.ts'
import { merge } from './merge.ts'
import type { RawImage } from './pipeline.ts'
import { smartCrop } from './smart-crop.ts'
import type { Step } from './step.ts'

/** The engine's implementation of one catalogue operation. */
export interface Operation {
  /**
   * Whether sharp applies the operation frame by frame, so an animation stays animated through
   * it. A chain with any other operation renders the first frame only.
   */
  readonly animated: boolean
  run(step: Step): Promise<void> | void
}

const FITS: readonly Fit[] = ['cover', 'contain', 'fill', 'inside', 'outside']

// The language's resize positions, in sharp's words.
const POSITIONS: Readonly<Record<string, string>> = {
  top: 'top',
  bottom: 'bottom',
  left: 'left',
  right: 'right',
  right_top: 'right top',
  right_bottom: 'right bottom',
  left_top: 'left top',
  left_bottom: 'left bottom',
  center: 'centre',
}

const KERNELS: readonly (keyof KernelEnum)[] = [
  'nearest',
  'cubic',
  'mitchell',
  'lanczos2',
  'lanczos3',
]

const BORDERS: Readonly<Record<string, ExtendWith>> = {
  constant: 'background',
  replicate: 'copy',
  reflect: 'mirror',
  wrap: 'repeat',
}

function oneOf<T extends string>(step: Step, id: string, allowed: readonly T[]): T {
  const value = step.params.string(id)
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new EngineError(
    'invalid_param',
    MESSAGES.invalidParam(step.key, id, `one of ${allowed.join(', ')}`),
  )
}

// The operation's own `dpr` parameter times the request's dpr.
function scaleOf(step: Step): number {
  const scale = step.params.number('dpr') * step.dpr
  if (scale > 0 && scale <= 100) return scale
  throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'dpr', 'positive'))
}

function scaled(value: number, scale: number): number {
  return value > 0 ? Math.max(1, Math.round(value * scale)) : 0
}

async function resize(step: Step): Promise<void> {
  const { params, image } = step
  const scale = scaleOf(step)
  const width = scaled(params.integer('w'), scale)
  const height = scaled(params.integer('h'), scale)
  if (width === 0 && height === 0) return
  const fit = oneOf(step, 'f', FITS)
  const position = POSITIONS[oneOf(step, 'p', Object.keys(POSITIONS))]
  const kernel = oneOf(step, 'k', KERNELS)
  const background = params.colour('b')
  const next = resizedSize(image.width, image.height, width, height, fit)
  step.checkSize(next.width, next.height)
  const paints = fit === 'contain'
  // What sharp's shrink-on-load rule reads is at most this (decoded-cache.ts relies on it).
  const shrink = Math.max(width ? image.width / width : 0, height ? image.height / height : 0)
  await image.pipe(
    'resize',
    (sharp) =>
      sharp.resize({
        width: width || undefined,
        height: height || undefined,
        fit,
        position,
        kernel,
        background,
      }),
    { ...next, alpha: image.alpha || (paints && background.alpha < 1) },
    { paints, shrink },
  )
}

async function extend(step: Step): Promise<void> {
  const { params, image } = step
  const scale = scaleOf(step)
  const side = (id: string) => Math.max(0, Math.round(params.integer(id) * scale))
  const [top, left, bottom, right] = [side('t'), side('l'), side('b'), side('r')]
  if (top + left + bottom + right === 0) return
  const extendWith = BORDERS[oneOf(step, 'bt', Object.keys(BORDERS))]
  const background = params.colour('bc')
  const width = image.width + left + right
  const height = image.height + top + bottom
  step.checkSize(width, height)
  const paints = extendWith === 'background'
  await image.pipe(
    'extend',
    (sharp) => sharp.extend({ top, left, bottom, right, background, extendWith }),
    { width, height, alpha: image.alpha || (paints && background.alpha < 1) },
    { paints },
  )
}

async function extract(step: Step): Promise<void> {
  const { params, image } = step
  // bbox is [left, top, width, height], the order of the l, t, w, h parameters.
  const [left = 0, top = 0, width = 0, height = 0] = params.box('bbox') ?? [
    params.integer('l'),
    params.integer('t'),
    params.integer('w'),
    params.integer('h'),
  ]
  if (width <= 0 || height <= 0) {
    throw new EngineError('invalid_region', MESSAGES.emptyRegion(step.key))
  }
  const region = clampRegion({ left, top, width, height }, image)
  if (region === undefined) {
    throw new EngineError('invalid_region', MESSAGES.regionOutside(step.key))
  }
  if (region.width === image.width && region.height === image.height) return
  await image.pipe('extract', (sharp) => sharp.extract(region), region)
}

async function rotate(step: Step): Promise<void> {
  const { params, image } = step
  const angle = ((params.integer('a') % 360) + 360) % 360
  if (angle === 0) return
  const background = params.colour('b')
  if (angle % 90 === 0) {
    const turned = angle !== 180
    const next = turned ? { width: image.height, height: image.width } : image
    await image.pipe('rotate90', (sharp) => sharp.rotate(angle), { ...next })
    return
  }
  const bounds = rotatedSize(image, angle)
  step.checkSize(bounds.width, bounds.height)
  // libvips rounds the rotated bounds its own way: run now and read the real size.
  await image.pipe('rotate', (sharp) => sharp.rotate(angle, { background }), undefined, {
    paints: true,
  })
}

// sRGB → linear light, per 8-bit value.
const LINEAR = Float64Array.from({ length: 256 }, (_, value) => {
  const v = value / 255
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
})

/**
 * libvips' sRGB → B_W conversion (the luminance of linear light, gamma-encoded again) on raw
 * pixels, keeping the alpha channel.
 */
export function greyPixels(image: RawImage): RawImage {
  const { data, channels } = image
  if (channels < 3) return image
  const out = Buffer.alloc(data.length)
  for (let at = 0; at < data.length; at += channels) {
    const y =
      0.2126 * (LINEAR[data[at] ?? 0] ?? 0) +
      0.7152 * (LINEAR[data[at + 1] ?? 0] ?? 0) +
      0.0722 * (LINEAR[data[at + 2] ?? 0] ?? 0)
    const encoded = y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055
    const value = Math.round(Math.min(1, Math.max(0, encoded)) * 255)
    out[at] = value
    out[at + 1] = value
    out[at + 2] = value
    if (channels === 4) out[at + 3] = data[at + 3] ?? 255
  }
  return { ...image, data: out }
}

async function grey(step: Step): Promise<void> {
  const { image } = step
  if (!image.alpha) {
    await image.pipe('grey', (sharp) => sharp.greyscale(), image)
    return
  }
  // Sharp's greyscale drops the alpha channel of raw output, which every later step reads.
  image.replace(greyPixels(await image.raw()))
}

function quality(value: number): number {
  return Math.min(100, Math.max(1, Math.round(value)))
}

/**
 * Every operation the engine runs, by catalogue key (`spec.key`). Adding an operation is one
 * record here plus `runnable: true` in the catalogue; a test fails when the two disagree.
 */
export const OPERATIONS = {
  't.resize': { animated: true, run: resize },
  't.compress': {
    animated: true,
    run: (step) => {
      const value = quality(step.params.integer('q'))
      step.output.quality = value
      step.output.paletteQuality = value
    },
  },
  't.extend': { animated: true, run: extend },
  't.extract': { animated: true, run: extract },
  // An animation is trimmed by its first frame's edges (frames.ts).
  't.trim': {
    animated: true,
    run: trimFrames((step) => {
      const threshold = step.params.integer('t')
      // The size is known only once libvips has found the edges.
      return step.image.pipe('trim', (sharp) => sharp.trim({ threshold }), undefined)
    }),
  },
  // These would treat an animation's stacked frames as one image: they run frame by frame.
  't.rotate': { animated: true, run: frameWise(rotate) },
  't.flip': {
    animated: true,
    run: frameWise((step) => step.image.pipe('flip', (sharp) => sharp.flip(), step.image)),
  },
  't.flop': {
    animated: true,
    run: (step) => step.image.pipe('flop', (sharp) => sharp.flop(), step.image),
  },
  // Neighbourhood filters would bleed across the frames of an animation (stacked in one image):
  // they run frame by frame.
  't.sharpen': {
    animated: true,
    run: frameWise((step) => {
      const sigma = step.params.number('s')
      return step.image.pipe('sharpen', (sharp) => sharp.sharpen({ sigma }), step.image)
    }),
  },
  't.median': {
    animated: true,
    run: frameWise((step) => {
      const size = step.params.integer('s')
      return step.image.pipe('median', (sharp) => sharp.median(size), step.image)
    }),
  },
  't.blur': {
    animated: true,
    run: frameWise((step) => {
      const sigma = Math.min(1000, Math.max(0.3, step.params.number('s') * scaleOf(step)))
      return step.image.pipe('blur', (sharp) => sharp.blur(sigma), step.image)
    }),
  },
  't.flatten': {
    animated: true,
    run: (step) => {
      const background = step.params.colour('b')
      const next = { width: step.image.width, height: step.image.height, alpha: false }
      return step.image.pipe('flatten', (sharp) => sharp.flatten({ background }), next)
    },
  },
  't.negate': {
    animated: true,
    run: (step) => step.image.pipe('negate', (sharp) => sharp.negate({ alpha: false }), step.image),
  },
  't.normalise': {
    animated: true,
    run: (step) => step.image.pipe('normalise', (sharp) => sharp.normalise(), step.image),
  },
  't.linear': {
    animated: true,
    run: (step) => {
      const a = step.params.number('a')
      const b = step.params.number('b')
      return step.image.pipe('linear', (sharp) => sharp.linear(a, b), step.image)
    },
  },
  't.modulate': {
    animated: true,
    run: (step) => {
      const brightness = step.params.number('b')
      const saturation = step.params.number('s')
      const hue = step.params.integer('h')
      return step.image.pipe(
        'modulate',
        (sharp) => sharp.modulate({ brightness, saturation, hue }),
        step.image,
      )
    },
  },
  't.grey': { animated: true, run: grey },
  't.tint': {
    animated: true,
    run: (step) => {
      const { r, g, b } = step.params.colour('c')
      return step.image.pipe('tint', (sharp) => sharp.tint({ r, g, b }), step.image)
    },
  },
  't.toFormat': {
    animated: true,
    // The format itself was chosen before the chain ran (chooseOutputFormat).
    run: (step) => {
      const value = step.params.string('q')
      const number = QUALITY_WORDS[value] ?? Number(value)
      if (!Number.isFinite(number)) {
        throw new EngineError('invalid_param', MESSAGES.invalidParam(step.key, 'q', 'a quality'))
      }
      step.output.quality = quality(number)
    },
  },
  't.density': {
    animated: true,
    run: (step) => {
      const density = step.params.integer('d')
      if (density <= 0 || density > 100_000) {
        throw new EngineError(
          'invalid_param',
          MESSAGES.invalidParam(step.key, 'd', 'from 1 to 100000'),
        )
      }
      step.output.density = density
    },
  },
  // The page is chosen and drawn before the chain runs (decode.ts); the step itself does nothing.
  'pdf.page': { animated: true, run: () => undefined },
  't.merge': { animated: false, run: merge },
  'ic.crop': { animated: false, run: smartCrop },
  // Video steps (the `vid` plugin, a Tessera extension): @tessera/media takes the frame and cuts
  // the timeline before the engine sees a still, so here they leave the image as it is.
  'vid.frame': { animated: true, run: () => undefined },
  'vid.trim': { animated: true, run: () => undefined },
  ...Object.fromEntries(AI_OPERATIONS.map((key) => [key, { animated: false, run: runAiStep }])),
} satisfies Record<string, Operation>

/** A key of `OPERATIONS`. */
export type OperationKey = keyof typeof OPERATIONS

const REGISTRY: ReadonlyMap<string, Operation> = new Map(Object.entries(OPERATIONS))

/** The implementation registered under `key`, if any. */
export function getOperation(key: string): Operation | undefined {
  return REGISTRY.get(key)
}
