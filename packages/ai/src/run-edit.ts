// The edits' dispatch: watermark removal, masks, shadows, QR codes and cut-outs.
import { UNAVAILABLE } from './catalogue.ts'
import { clampBox, faceRegions, findFaces, findText, textRegions } from './detect.ts'
import { maskImage, shadowScene } from './edit.ts'
import { contactShadow, cutOut, subjectCutout } from './erase.ts'
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiImage, Box } from './image.ts'
import { findMarkText } from './mark-text.ts'
import type { IsnetSize } from './models/isnet.ts'
import { decodeQrInput } from './models/qr-text.ts'
import { alphaOf, rgb, toImage, withAlpha } from './pixels.ts'
import type { ModelPools } from './pool.ts'
import type { AiRequest, AiResult } from './request.ts'
import { removeMarks } from './watermark.ts'

// The ISNet size of cut-outs (erase.bg, remove.bg, shadow.gen): see packages/ai/README.md for
// the comparison of small and medium on the background-removal benchmark.
const CUTOUT_MODEL: IsnetSize = 'small'

/** Refuses a parameter: `invalid_param`, naming what was expected. */
export function fail(key: string, param: string, expected: string): never {
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
 * Runs one edit (every AI operation that is neither a detection nor `sr.upscale`).
 *
 * @throws {AiError} any code
 */
export async function edit(pools: ModelPools, request: AiRequest): Promise<AiResult> {
  const { key, image, params } = request
  switch (key) {
    case 'wm.remove': {
      const boxes = ['box1', 'box2', 'box3', 'box4', 'box5']
        .map((id) => percentBox(params.string(id), image.width, image.height, key, id))
        .filter((box): box is Box => box !== undefined)
      const removeText = params.boolean('rem_text')
      const lines = removeText ? await findMarkText(pools, image, key) : []
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
      if (kind === 'face') regions = faceRegions(await findFaces(pools, image, key), width, height)
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
      return { image: await qrImage(pools, request) }
    default:
      return await erase(pools, request)
  }
}

async function erase(pools: ModelPools, request: AiRequest): Promise<AiResult> {
  const { key, image, params } = request
  const { alpha, colour } = await subjectCutout(pools, image, CUTOUT_MODEL, key)
  const shadow =
    key === 'erase.bg' && params.boolean('shadow')
      ? await contactShadow(alpha, image.width, image.height, 0.55)
      : undefined
  return { image: await cutOut(colour, alpha, shadow) }
}

async function qrImage(pools: ModelPools, request: AiRequest): Promise<AiImage> {
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
