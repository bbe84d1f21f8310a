// Upscaling against ground truth: crops of the demo photos are the truth; each is shrunk ×2 and
// ×4 (bicubic, as the models' training data was made, and lanczos3, as sharp shrinks by
// default), enlarged back by `sr.upscale` (each model) and by lanczos3, and compared with the
// truth: PSNR (RGB) and SSIM (luma). `lanczos3+bp` is lanczos3 corrected by the same
// back-projection `sr.upscale` applies (4 rounds, no model): what the models add on their own.
// A larger input is then timed per output megapixel.
// `UPSCALE_MODELS=Flash,Picasso` picks models; `UPSCALE_SIDE` the crop side (default 192).
import { type AiImage, createAi } from '@tessera/ai'
import sharp, { type Sharp } from 'sharp'
import { backProject } from '../../packages/ai/src/models/back-projection.ts'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import { printRows, psnr, ssim } from './metrics.ts'

const SAMPLES = new URL('../../apps/server/demo/samples/', import.meta.url)
const PHOTOS = ['astronaut.png', 'camera.png', 'chelsea.png', 'coffee.png', 'rocket.jpg']
const SIDE = Number(process.env.UPSCALE_SIDE ?? 192)
const MODELS = (process.env.UPSCALE_MODELS ?? 'Flash,Picasso').split(',').filter(Boolean)
const SCALES = [2, 4] as const
const SHRINKS = ['cubic', 'lanczos3'] as const

type Kernel = 'cubic' | 'lanczos3'

async function raw(pipeline: Sharp): Promise<AiImage> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

function open(image: AiImage): Sharp {
  const { width, height, channels } = image
  return sharp(image.data, { raw: { width, height, channels } })
}

// The centre crop of a photo, in colour (camera.png is grey: it is made RGB).
async function truthOf(name: string): Promise<AiImage> {
  const file = new URL(name, SAMPLES).pathname
  const { width = 0, height = 0 } = await sharp(file).metadata()
  const side = Math.min(SIDE, width, height)
  const crop = {
    left: Math.floor((width - side) / 2),
    top: Math.floor((height - side) / 2),
    width: side,
    height: side,
  }
  return await raw(sharp(file).extract(crop).toColourspace('srgb'))
}

const resize = (image: AiImage, width: number, height: number, kernel: Kernel) =>
  raw(open(image).resize(width, height, { fit: 'fill', kernel }))

const ai = createAi({ timeoutMs: 1_800_000 })

async function upscale(image: AiImage, scale: number, model: string) {
  const params = paramsOf('sr.upscale', { t: `${scale}x`, model })
  const started = performance.now()
  const result = await ai.run({ key: 'sr.upscale', image, params })
  return { image: result.image, seconds: (performance.now() - started) / 1000 }
}

const rows: Record<string, string | number>[] = []
const sums = new Map<string, { psnr: number; ssim: number; count: number }>()
function add(key: string, p: number, s: number) {
  const sum = sums.get(key) ?? { psnr: 0, ssim: 0, count: 0 }
  sums.set(key, { psnr: sum.psnr + p, ssim: sum.ssim + s, count: sum.count + 1 })
}

try {
  // A warm-up call per model, so model loading is not in any figure.
  const warm = await truthOf(PHOTOS[0] as string)
  for (const model of MODELS) {
    for (const scale of SCALES) await upscale(await resize(warm, 16, 16, 'cubic'), scale, model)
  }
  for (const name of PHOTOS) {
    const truth = await truthOf(name)
    for (const scale of SCALES) {
      for (const shrink of SHRINKS) {
        const small = await resize(truth, truth.width / scale, truth.height / scale, shrink)
        const lanczos = await resize(small, truth.width, truth.height, 'lanczos3')
        const score = (image: AiImage) => ({
          psnr: psnr(image.data, truth.data, 3),
          ssim: ssim(image.data, truth.data, truth.width, truth.height, 3),
        })
        const base = score(lanczos)
        add(`×${scale} ${shrink} lanczos3`, base.psnr, base.ssim)
        const corrected = backProject(
          Float32Array.from(lanczos.data),
          Float32Array.from(small.data),
          small.width,
          small.height,
          scale,
          4,
        )
        const classical = score({
          ...lanczos,
          data: Uint8Array.from(corrected, (v) => Math.max(0, Math.min(255, Math.round(v)))),
        })
        add(`×${scale} ${shrink} lanczos3+bp`, classical.psnr, classical.ssim)
        const row: Record<string, string | number> = {
          photo: name,
          scale: `×${scale}`,
          shrunk: shrink,
          'lanczos3 PSNR': base.psnr,
          'lanczos3 SSIM': base.ssim,
          'lanczos3+bp gain dB': classical.psnr - base.psnr,
        }
        for (const model of MODELS) {
          const ours = score((await upscale(small, scale, model)).image)
          add(`×${scale} ${shrink} ${model}`, ours.psnr, ours.ssim)
          row[`${model} PSNR`] = ours.psnr
          row[`${model} SSIM`] = ours.ssim
          row[`${model} gain dB`] = ours.psnr - base.psnr
        }
        rows.push(row)
      }
    }
  }
  printRows(rows)
  console.log('\nMeans over the photos:\n')
  const means: Record<string, string | number>[] = []
  for (const scale of SCALES) {
    for (const shrink of SHRINKS) {
      const base = sums.get(`×${scale} ${shrink} lanczos3`)
      if (base === undefined) continue
      const row: Record<string, string | number> = {
        scale: `×${scale}`,
        shrunk: shrink,
        'lanczos3 PSNR': base.psnr / base.count,
        'lanczos3 SSIM': base.ssim / base.count,
      }
      const classical = sums.get(`×${scale} ${shrink} lanczos3+bp`)
      if (classical !== undefined) {
        row['lanczos3+bp PSNR'] = classical.psnr / classical.count
        row['lanczos3+bp gain dB'] = (classical.psnr - base.psnr) / classical.count
      }
      for (const model of MODELS) {
        const sum = sums.get(`×${scale} ${shrink} ${model}`)
        if (sum === undefined) continue
        row[`${model} PSNR`] = sum.psnr / sum.count
        row[`${model} SSIM`] = sum.ssim / sum.count
        row[`${model} gain dB`] = (sum.psnr - base.psnr) / sum.count
      }
      means.push(row)
    }
  }
  printRows(means)
  // Time per output megapixel on a larger input (the astronaut's centre, 256² in).
  console.log('\nTime (warm, through the service: worker round trip included):\n')
  const timed: Record<string, string | number>[] = []
  const input = await resize(await truthOf('astronaut.png'), 128, 128, 'cubic')
  const big = await raw(
    sharp(new URL('astronaut.png', SAMPLES).pathname).resize(256, 256).toColourspace('srgb'),
  )
  for (const model of MODELS) {
    for (const scale of SCALES) {
      for (const image of [input, big]) {
        const { seconds } = await upscale(image, scale, model)
        const megapixels = (image.width * scale * image.height * scale) / 1e6
        timed.push({
          model,
          scale: `×${scale}`,
          input: `${image.width}×${image.height}`,
          's/image': seconds,
          's/output MP': seconds / megapixels,
        })
      }
    }
  }
  printRows(timed)
} finally {
  await ai.close()
}
