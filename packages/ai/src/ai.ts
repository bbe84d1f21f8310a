import { AI_OPERATIONS, DETECTIONS, isAiOperation, UNAVAILABLE } from './catalogue.ts'
import {
  clampBox,
  faceRegions,
  findFaces,
  findObjects,
  findText,
  polygonBox,
  textRegions,
  unionBox,
} from './detect.ts'
import { maskImage, shadowScene } from './edit.ts'
import { contactShadow, cutOut, subjectCutout, subjectMask } from './erase.ts'
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiImage, Box } from './image.ts'
import type { EsrganScale } from './models/esrgan.ts'
import type { IsnetSize } from './models/isnet.ts'
import { isUnsafe, type NsfwScores } from './models/nsfw.ts'
import type { QrCode } from './models/qr.ts'
import { decodeQrInput } from './models/qr-text.ts'
import type { AiParams } from './params.ts'
import { alphaOf, open, resizeMask, rgb, subjectBounds, toImage, withAlpha } from './pixels.ts'
import { ModelPools } from './pool.ts'
import { type AiSettings, resolveAiSettings } from './settings.ts'
import { removeMarks } from './watermark.ts'

/** One AI step of a chain. */
export interface AiRequest {
  /** The catalogue key, `erase.bg`. */
  key: string
  image: AiImage
  params: AiParams
  /** Largest side of a result (the engine's `maxOutputDimension`). */
  maxOutputDimension?: number
  /** Loads another stored file (`bgi` of shadow.gen, `i` of im.mask). */
  loadImage?: (fileId: string) => Promise<AiImage>
}

/** What an AI step gives back. */
export interface AiResult {
  /** The image the chain continues with (the input itself for a detection). */
  image: AiImage
  /** What a detection found, for the transformation context; undefined for edits. */
  data?: Record<string, unknown>
}

/** Where `ic.crop` should look: the gravities that need a model. */
export type CropGravity = 'face' | 'object' | 'foreground'

/** The AI service: models in worker pools, loaded on first use. */
export interface Ai {
  readonly settings: Readonly<AiSettings>
  /** Whether `key` is an AI operation this package runs. */
  runs(key: string): boolean
  /** Why `key` cannot run here, or undefined when it can (or is not an AI operation). */
  unavailableReason(key: string): string | undefined
  /**
   * Refuses an input larger than `AI_MAX_INPUT_PIXELS`, before anything is queued.
   *
   * @throws {AiError} `too_many_pixels`
   */
  checkInput(width: number, height: number): void
  /**
   * Runs one operation.
   *
   * @throws {AiError} any code
   */
  run(request: AiRequest): Promise<AiResult>
  /** The region `ic.crop` keeps in view for a gravity, or undefined when nothing is found. */
  focus(gravity: CropGravity, image: AiImage, object?: string): Promise<Box | undefined>
  /** Ends the worker threads. */
  close(): Promise<void>
}

// The ISNet size of cut-outs (erase.bg, remove.bg, shadow.gen): see packages/ai/README.md for
// the comparison of small and medium on the background-removal benchmark.
const CUTOUT_MODEL: IsnetSize = 'small'

const SCALES: Readonly<Record<string, EsrganScale>> = { '2x': 2, '4x': 4, '8x': 8 }

function fail(key: string, param: string, expected: string): never {
  throw new AiError('invalid_param', AI_MESSAGES.invalidParam(key, param, expected))
}

/** Reads `x_y_w_h` in percent of the image into a pixel box; undefined when empty. */
export function percentBox(text: string, width: number, height: number, key: string, id: string) {
  const parts = text.split('_').map(Number)
  if (parts.length !== 4 || !parts.every((part) => Number.isFinite(part) && part >= 0)) {
    fail(key, id, 'x_y_w_h in percent of the image')
  }
  const [x = 0, y = 0, w = 0, h = 0] = parts
  if (w === 0 || h === 0) return undefined
  return clampBox(
    {
      left: (x / 100) * width,
      top: (y / 100) * height,
      width: (w / 100) * width,
      height: (h / 100) * height,
    },
    width,
    height,
  )
}

/**
 * Creates the AI service. Nothing loads until an operation needs it.
 *
 * @throws {RangeError} for a setting out of range.
 */
export function createAi(settings: Partial<AiSettings> = {}): Ai {
  const resolved = resolveAiSettings(settings)
  const pools = new ModelPools(resolved)

  function checkInput(width: number, height: number): void {
    const pixels = width * height
    if (pixels > resolved.maxInputPixels) {
      throw new AiError(
        'too_many_pixels',
        AI_MESSAGES.tooManyPixels(pixels, resolved.maxInputPixels),
      )
    }
  }

  // ISNet `small`: `medium` was measured against the hand-checked horse mask and did not do
  // better (IoU 0.991 against 0.992) for twice the time, so `r:true` does not switch to it.
  async function mask(image: AiImage, key: string): Promise<Buffer> {
    return await subjectMask(pools, image, 'small', key)
  }

  async function focus(gravity: CropGravity, image: AiImage, object = 'person') {
    const key = 'ic.crop'
    checkInput(image.width, image.height)
    if (gravity === 'face') {
      return unionBox((await findFaces(pools, image, key)).map((face) => face.box))
    }
    if (gravity === 'object') {
      const label = object.replaceAll('_', ' ')
      const objects = await findObjects(pools, image, key)
      const best = objects.find((found) => found.label === label)
      return best?.box
    }
    return subjectBounds(await mask(image, key), image.width, image.height)
  }

  async function upscale(request: AiRequest): Promise<AiResult> {
    const { key, image, params } = request
    const scale = SCALES[params.string('t')] ?? fail(key, 't', 'one of 2x, 4x, 8x')
    const model = params.string('model')
    if (model !== 'Picasso' && model !== 'Flash') fail(key, 'model', 'Picasso or Flash')
    const fast = model === 'Flash' && !params.boolean('enhance_quality')
    const variant = fast ? 'slim' : scale === 4 ? 'slim-twice' : 'medium'
    const width = image.width * scale
    const height = image.height * scale
    const max = request.maxOutputDimension ?? Number.POSITIVE_INFINITY
    if (width > max || height > max) {
      throw new AiError('invalid_param', AI_MESSAGES.outputTooLarge(key, width, height, max))
    }
    const colour = await rgb(image)
    const task = { kind: 'esrgan', image: colour, variant, scale } as const
    const result = await pools.run<AiImage>(task, key)
    if (image.channels !== 2 && image.channels !== 4) return { image: result }
    // Transparency is not the model's business: it is enlarged smoothly on its own.
    const alpha = await resizeMask(await alphaOf(image), image, result)
    return { image: withAlpha(result, alpha) }
  }

  async function erase(request: AiRequest): Promise<AiResult> {
    const { key, image, params } = request
    const { alpha, colour } = await subjectCutout(pools, image, CUTOUT_MODEL, key)
    const shadow =
      key === 'erase.bg' && params.boolean('shadow')
        ? await contactShadow(alpha, image.width, image.height, 0.55)
        : undefined
    return { image: await cutOut(colour, alpha, shadow) }
  }

  async function detect(request: AiRequest): Promise<Record<string, unknown>> {
    const { key, image, params } = request
    switch (key) {
      case 'ocr.extract': {
        const lines = await findText(pools, image, key)
        const detectOnly = params.boolean('detect_only')
        return {
          text: detectOnly ? '' : lines.map((line) => line.text).join('\n'),
          lines: lines.map((line) => ({
            ...(detectOnly ? {} : { text: line.text, score: round(line.score) }),
            polygon: line.polygon,
            box: polygonBox(line.polygon),
          })),
        }
      }
      case 'wmc.detect': {
        // No watermark classifier ships on npm: this reports text overlaid on the image,
        // which is what most watermarks are, and says so.
        const lines = await findText(pools, image, key)
        return {
          method: 'text detection (PaddleOCR); marks without text are not seen',
          watermark: lines.length > 0,
          regions: lines.map((line) => ({
            box: polygonBox(line.polygon),
            ...(params.boolean('detect_text') ? { text: line.text } : {}),
          })),
        }
      }
      case 'nsfw.detect':
      case 'awsRek.moderation': {
        const scores = await pools.run<NsfwScores>(
          { kind: 'nsfw', image: await rgb(image, 512) },
          key,
        )
        const threshold = key === 'nsfw.detect' ? params.number('m') : params.integer('c') / 100
        const top = Object.entries(scores).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'Neutral'
        return {
          nsfw: isUnsafe(scores, threshold),
          label: top,
          scores: Object.fromEntries(Object.entries(scores).map(([name, p]) => [name, round(p)])),
        }
      }
      case 'od.detect':
      case 'oc.detect':
      case 'awsRek.detectLabels':
      case 'googleVis.detectLabels': {
        const objects = await findObjects(pools, image, key)
        if (key === 'od.detect') {
          return {
            objects: objects.map(({ label, score, box }) => ({ label, score: round(score), box })),
          }
        }
        if (key === 'oc.detect') {
          const counts: Record<string, number> = {}
          for (const { label } of objects) counts[label] = (counts[label] ?? 0) + 1
          return { count: objects.length, multiple: objects.length > 1, counts }
        }
        const limit = params.integer('l')
        const minimum = key === 'awsRek.detectLabels' ? params.integer('c') / 100 : 0
        const labels = new Map<string, number>()
        for (const { label, score } of objects) {
          if (score >= minimum && !labels.has(label)) labels.set(label, score)
        }
        return {
          labels: [...labels]
            .slice(0, limit)
            .map(([name, score]) => ({ name, score: round(score) })),
        }
      }
      case 'cos.detect':
      case 'imc.detect':
      case 'dbt.detect':
        return await subjectReport(request)
      case 'qr.scan': {
        const code = await pools.run<QrCode | null>(
          { kind: 'qr-scan', image: await rgbaOf(image) },
          key,
        )
        return code === null ? { found: false } : { found: true, ...code }
      }
      default:
        throw new AiError('model_unavailable', AI_MESSAGES.unavailable(key, 'not an AI operation'))
    }
  }

  // cos/imc/dbt read the subject mask: its size, its centre, and what the background is like.
  async function subjectReport(request: AiRequest): Promise<Record<string, unknown>> {
    const { key, image, params } = request
    const subject = await mask(image, key)
    const bounds = subjectBounds(subject, image.width, image.height)
    const area = image.width * image.height
    if (key === 'cos.detect') {
      const percent = bounds === undefined ? 0 : (100 * bounds.width * bounds.height) / area
      const threshold = params.integer('obj_threshold_perc')
      return {
        objectPercentage: round(percent),
        threshold,
        passed: percent >= threshold,
        box: bounds,
      }
    }
    if (key === 'imc.detect') {
      if (bounds === undefined) return { centred: false, box: null }
      const dx = (100 * (bounds.left + bounds.width / 2 - image.width / 2)) / image.width
      const dy = (100 * (bounds.top + bounds.height / 2 - image.height / 2)) / image.height
      const limit = params.integer('dist_perc')
      return {
        centred: Math.abs(dx) <= limit && Math.abs(dy) <= limit,
        offsetPercent: { x: round(dx), y: round(dy) },
        box: bounds,
      }
    }
    return { ...(await backgroundType(image, subject)) }
  }

  async function edit(request: AiRequest): Promise<AiResult> {
    const { key, image, params } = request
    switch (key) {
      case 'wm.remove': {
        const boxes = ['box1', 'box2', 'box3', 'box4', 'box5']
          .map((id) => percentBox(params.string(id), image.width, image.height, key, id))
          .filter((box): box is Box => box !== undefined)
        const removeText = params.boolean('rem_text')
        const lines = removeText ? await findText(pools, image, key) : []
        const colour = await rgb(image)
        const repaint = (pixels: AiImage, mask: Uint8Array) =>
          pools.run<AiImage>(
            { kind: 'inpaint', image: pixels, mask, method: 'telea', radius: 4 },
            key,
          )
        const { image: cleaned } = await removeMarks(
          colour,
          {
            key,
            boxes,
            lines: removeText ? lines.map((line) => line.polygon) : undefined,
            logo: params.boolean('rem_logo'),
          },
          repaint,
        )
        if (image.channels !== 2 && image.channels !== 4) return { image: cleaned }
        return { image: withAlpha(cleaned, await alphaOf(image)) }
      }
      case 'im.mask': {
        const kind = params.string('d')
        if (kind === 'number_plate') {
          throw new AiError(
            'model_unavailable',
            AI_MESSAGES.unavailable(
              `${key}(d:number_plate)`,
              UNAVAILABLE['numPlate.detect'] as string,
            ),
          )
        }
        let regions: Box[]
        const { width, height } = image
        if (kind === 'face')
          regions = faceRegions(await findFaces(pools, image, key), width, height)
        else if (kind === 'text')
          regions = textRegions(await findText(pools, image, key), width, height)
        else fail(key, 'd', 'face, text or number_plate')
        const fileId = params.string('i')
        const replacement =
          fileId === '' || request.loadImage === undefined
            ? undefined
            : await request.loadImage(fileId)
        return { image: await maskImage(image, regions, params.string('m'), replacement, key) }
      }
      case 'shadow.gen': {
        const { alpha: subject, colour } = await subjectCutout(pools, image, CUTOUT_MODEL, key)
        const fileId = params.string('bgi')
        const background =
          fileId === '' || request.loadImage === undefined
            ? undefined
            : await request.loadImage(fileId)
        return {
          image: await shadowScene(colour, subject, {
            angle: params.number('a'),
            intensity: params.number('i'),
            colour: params.colour('bgc'),
            background,
          }),
        }
      }
      case 'qr.generate':
        return { image: await qrImage(request) }
      default:
        return await erase(request)
    }
  }

  async function qrImage(request: AiRequest): Promise<AiImage> {
    const { key, params } = request
    const width = params.integer('w')
    const height = params.integer('h')
    if (width < 21 || height < 21 || width > 4000 || height > 4000)
      fail(key, 'w, h', 'from 21 to 4000')
    const text = decodeQrInput(params.string('i'))
    if (text === '') fail(key, 'i', 'the text to encode (base64 or plain)')
    const level = params.string('qe')
    if (!['L', 'M', 'Q', 'H'].includes(level)) fail(key, 'qe', 'one of L, M, Q, H')
    const hex = (id: string) => {
      const { r, g, b, alpha } = params.colour(id)
      return `#${[r, g, b, Math.round(alpha * 255)].map((v) => v.toString(16).padStart(2, '0')).join('')}`
    }
    const options = {
      text,
      size: Math.min(width, height),
      margin: Math.max(0, params.integer('m')),
      errorCorrection: level as 'L' | 'M' | 'Q' | 'H',
      dark: hex('ds'),
      light: hex('bg'),
    }
    const png = await pools.run<Uint8Array>({ kind: 'qr-generate', options }, key)
    const sharp = (await import('sharp')).default
    const { r, g, b, alpha } = params.colour('bg')
    return await toImage(
      sharp(png)
        .resize(width, height, {
          fit: 'contain',
          background: { r, g, b, alpha },
          kernel: 'nearest',
        })
        .ensureAlpha(),
    )
  }

  async function run(request: AiRequest): Promise<AiResult> {
    const { key, image } = request
    if (!isAiOperation(key)) {
      const reason = UNAVAILABLE[key] ?? 'it is not an AI operation of this server'
      throw new AiError('model_unavailable', AI_MESSAGES.unavailable(key, reason))
    }
    checkInput(image.width, image.height)
    if (key === 'sr.upscale') return await upscale(request)
    if (DETECTIONS.has(key)) return { image, data: await detect(request) }
    return await edit(request)
  }

  return {
    settings: resolved,
    runs: isAiOperation,
    unavailableReason: (key) => UNAVAILABLE[key],
    checkInput,
    run,
    focus,
    close: () => pools.close(),
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

async function rgbaOf(image: AiImage): Promise<AiImage> {
  return await toImage(open(image).toColourspace('srgb').ensureAlpha(1))
}

// Plain: the background varies little; clean: it varies, but smoothly; busy: it has detail.
async function backgroundType(image: AiImage, subject: Uint8Array) {
  const grey = await toImage(
    open(await rgb(image))
      .greyscale()
      .toColourspace('b-w'),
  )
  const edges = await toImage(
    open(grey)
      .convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] })
      .toColourspace('b-w'),
  )
  // The subject grown by a few pixels: its own outline is not background detail. (libvips'
  // morphology takes black as the foreground, so `erode` grows white.)
  const near = (
    await toImage(
      open({ data: subject, width: image.width, height: image.height, channels: 1 })
        .erode(Math.max(2, Math.round(Math.min(image.width, image.height) / 100)))
        .toColourspace('b-w'),
    )
  ).data
  let count = 0
  let sum = 0
  let squares = 0
  let edgeSum = 0
  for (let i = 0; i < subject.length; i++) {
    if ((near[i] as number) >= 32) continue
    const value = grey.data[i] as number
    count++
    sum += value
    squares += value * value
    edgeSum += edges.data[i] as number
  }
  if (count === 0) return { type: 'plain', backgroundPercentage: 0 }
  const mean = sum / count
  const deviation = Math.sqrt(Math.max(0, squares / count - mean * mean))
  const edgeMean = edgeSum / count
  const type = deviation < 12 && edgeMean < 4 ? 'plain' : edgeMean < 12 ? 'clean' : 'busy'
  return {
    type,
    backgroundPercentage: round((100 * count) / subject.length),
    deviation: round(deviation),
    edges: round(edgeMean),
  }
}

export { AI_OPERATIONS }
