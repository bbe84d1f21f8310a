// The detections' dispatch: what each detection key reports for the transformation context.

import { findObjects, findText, polygonBox } from './detect.ts'
import { AI_MESSAGES, AiError } from './errors.ts'
import type { AiImage } from './image.ts'
import { isUnsafe, type NsfwScores } from './models/nsfw.ts'
import type { QrCode } from './models/qr.ts'
import { open, rgb, subjectBounds, toImage } from './pixels.ts'
import type { ModelPools } from './pool.ts'
import type { AiRequest } from './request.ts'

/** The subject mask of an image (ISNet), shared with `ic.crop(g:foreground)`. */
export type SubjectMask = (image: AiImage, key: string) => Promise<Buffer>

/**
 * Runs one detection and answers what it found.
 *
 * @throws {AiError} any code
 */
export async function detect(
  pools: ModelPools,
  mask: SubjectMask,
  request: AiRequest,
): Promise<Record<string, unknown>> {
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
        labels: [...labels].slice(0, limit).map(([name, score]) => ({ name, score: round(score) })),
      }
    }
    case 'cos.detect':
    case 'imc.detect':
    case 'dbt.detect':
      return await subjectReport(mask, request)
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
async function subjectReport(
  mask: SubjectMask,
  request: AiRequest,
): Promise<Record<string, unknown>> {
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
