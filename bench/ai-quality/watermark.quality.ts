// Watermarks: clean photos with known marks composited over them — semi-transparent text
// tiled and rotated as stock photos do, an opaque logo in a corner, a thin caption — then
// wm.remove with the options a user would pick. Measured against the clean photo: PSNR on the
// mark (where its alpha is not zero) before and after, and PSNR away from the mark (outside it
// grown by 4 px: before removal that area is the clean photo itself, so it may only drop).
// A refusal (an AiError) is reported as such. `AI_QUALITY_SAVE=dir` writes the input, the
// output and the error away from the mark (×4) there.
import { type AiImage, createAi, isAiError } from '@tessera/ai'
import sharp, { type Sharp } from 'sharp'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import { printRows, psnr } from './metrics.ts'

const SAMPLES = new URL('../../apps/server/demo/samples/', import.meta.url)

interface Photo {
  name: string
  width: number
  height: number
}

const PHOTOS: Photo[] = [
  { name: 'astronaut.png', width: 512, height: 512 },
  { name: 'coffee.png', width: 600, height: 400 },
  { name: 'rocket.jpg', width: 640, height: 427 },
  { name: 'chelsea.png', width: 451, height: 300 },
]

type MarkKind = 'tiled text' | 'corner logo' | 'caption'

/** The mark alone, over transparency, the size of the photo. */
function markSvg(kind: MarkKind, width: number, height: number): Buffer {
  let body: string
  if (kind === 'tiled text') {
    const size = Math.round(width / 14)
    const texts: string[] = []
    for (let y = -height; y < 2 * height; y += size * 3) {
      for (let x = -width; x < 2 * width; x += size * 9) {
        texts.push(
          `<text x="${x + ((y / (size * 3)) % 2) * size * 4}" y="${y}">© STOCKPHOTO</text>`,
        )
      }
    }
    body = `<g transform="rotate(-30 ${width / 2} ${height / 2})" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" fill="#ffffff" fill-opacity="0.45">${texts.join('')}</g>`
  } else if (kind === 'corner logo') {
    const w = Math.round(width * 0.2)
    const h = Math.round(w * 0.45)
    const x = width - w - Math.round(width * 0.03)
    const y = height - h - Math.round(height * 0.04)
    body = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${h / 5}" fill="#1565c0"/><text x="${x + w / 2}" y="${y + h * 0.68}" text-anchor="middle" font-family="Liberation Sans" font-weight="bold" font-size="${h * 0.5}" fill="#ffffff">LOGO</text>`
  } else {
    const size = Math.max(12, Math.round(height / 28))
    body = `<text x="${Math.round(width * 0.02)}" y="${height - Math.round(size * 0.8)}" font-family="DejaVu Sans" font-size="${size}" fill="#ffffff">Photo © Jane Doe 2026</text>`
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`,
  )
}

async function raw(pipeline: Sharp): Promise<AiImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels as 3 }
}

/** Grows a mask by `radius` pixels (a square max filter, rows then columns). */
function grow(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const rows = new Uint8Array(mask.length)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let on = 0
      for (let d = -radius; d <= radius && on === 0; d++) {
        const xx = x + d
        if (xx >= 0 && xx < width && (mask[y * width + xx] as number) > 0) on = 255
      }
      rows[y * width + x] = on
    }
  }
  const out = new Uint8Array(mask.length)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let on = 0
      for (let d = -radius; d <= radius && on === 0; d++) {
        const yy = y + d
        if (yy >= 0 && yy < height && (rows[yy * width + x] as number) > 0) on = 255
      }
      out[y * width + x] = on
    }
  }
  return out
}

/** The box of a mask in percent of the image, `x_y_w_h`, grown by `pad` pixels. */
function percentBox(mask: Uint8Array, width: number, height: number, pad: number): string {
  let left = width
  let top = height
  let right = -1
  let bottom = -1
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue
    const x = i % width
    const y = (i - x) / width
    left = Math.min(left, x)
    right = Math.max(right, x)
    top = Math.min(top, y)
    bottom = Math.max(bottom, y)
  }
  left = Math.max(0, left - pad)
  top = Math.max(0, top - pad)
  right = Math.min(width - 1, right + pad)
  bottom = Math.min(height - 1, bottom + pad)
  const p = (v: number, of: number) => ((100 * v) / of).toFixed(2)
  return [
    p(left, width),
    p(top, height),
    p(right - left + 1, width),
    p(bottom - top + 1, height),
  ].join('_')
}

interface Run {
  label: string
  params: (mark: Uint8Array, width: number, height: number) => Record<string, string | boolean>
}

const RUNS: Record<MarkKind, Run[]> = {
  'tiled text': [{ label: 'rem_text', params: () => ({ rem_text: true }) }],
  'corner logo': [
    { label: 'rem_logo, no box', params: () => ({ rem_logo: true }) },
    {
      label: 'rem_logo, box',
      params: (mark, w, h) => ({ rem_logo: true, box1: percentBox(mark, w, h, 6) }),
    },
  ],
  caption: [{ label: 'rem_text', params: () => ({ rem_text: true }) }],
}

const ai = createAi({ timeoutMs: 600_000 })
const rows: Record<string, string | number>[] = []
try {
  for (const photo of PHOTOS) {
    const cleanPng = await sharp(new URL(photo.name, SAMPLES).pathname)
      .removeAlpha()
      .toColourspace('srgb')
      .resize(photo.width, photo.height, { fit: 'cover' })
      .png()
      .toBuffer()
    const clean = await raw(sharp(cleanPng))
    for (const kind of Object.keys(RUNS) as MarkKind[]) {
      const svg = markSvg(kind, photo.width, photo.height)
      const alpha = (await raw(sharp(svg).extractChannel('alpha'))).data
      const mark = Uint8Array.from(alpha, (a) => (a > 8 ? 255 : 0))
      const away = grow(mark, photo.width, photo.height, 4).map((v) => (v > 0 ? 0 : 255))
      const marked = await raw(
        sharp(cleanPng)
          .composite([{ input: svg }])
          .removeAlpha(),
      )
      const before = psnr(marked.data, clean.data, 3, mark)
      for (const run of RUNS[kind]) {
        const params = paramsOf('wm.remove', run.params(mark, photo.width, photo.height))
        const row: Record<string, string | number> = {
          photo: `${photo.name} ${photo.width}×${photo.height}`,
          mark: kind,
          run: run.label,
          'mark % of image': (100 * mark.filter((v) => v > 0).length) / mark.length,
          'PSNR mark before': before,
        }
        const started = performance.now()
        try {
          const { image } = await ai.run({ key: 'wm.remove', image: marked, params })
          row['PSNR mark after'] = psnr(image.data, clean.data, 3, mark)
          row['PSNR away after'] = psnr(image.data, clean.data, 3, away)
          row.gain = (row['PSNR mark after'] as number) - before
          const save = process.env.AI_QUALITY_SAVE
          if (save !== undefined) {
            const name = `${save}/wm-${photo.name}-${kind}-${run.label}`.replace(/[ ,]+/g, '-')
            await sharp(marked.data, { raw: marked }).png().toFile(`${name}-in.png`)
            await sharp(image.data, { raw: image }).png().toFile(`${name}-out.png`)
            const diff = Buffer.alloc(image.width * image.height)
            for (let i = 0; i < diff.length; i++) {
              let most = 0
              for (let c = 0; c < 3; c++) {
                most = Math.max(
                  most,
                  Math.abs((image.data[3 * i + c] as number) - (clean.data[3 * i + c] as number)),
                )
              }
              diff[i] = away[i] === 0 ? 0 : Math.min(255, most * 4)
            }
            await sharp(diff, { raw: { width: image.width, height: image.height, channels: 1 } })
              .png()
              .toFile(`${name}-away-error.png`)
          }
        } catch (error) {
          if (!isAiError(error)) throw error
          row['PSNR mark after'] = `refused (${error.code})`
          row['PSNR away after'] = '—'
          row.gain = 0
        }
        row.s = (performance.now() - started) / 1000
        rows.push(row)
      }
    }
  }
  printRows(rows)
} finally {
  await ai.close()
}
