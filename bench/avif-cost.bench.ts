// What f_auto's AVIF costs against WebP and JPEG by output size (issue 25, `AUTO_AVIF_MAX_SIDE`):
// each sample resized (Lanczos, as delivery does) to a longer side, then encoded with the
// engine's settings (AVIF q50 effort 2, WebP q80 effort 4, JPEG q80 baseline), one libvips thread
// as the engine runs, best of BENCH_REPEATS (default 3) per cell. Sides above a sample's own are
// upscales: smoother than a photo of that size, so their bytes flatter every format alike; the
// encode time, which grows with the area, is what the limit is about.
// Run: `npm run bench:avif-cost -w @tessera/bench`.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg } from 'node:os'
import { DEFAULT_OPTIONS } from '@tessera/engine'
import { printTable } from './table.ts'

const sharp = createRequire(import.meta.resolve('@tessera/engine'))(
  'sharp',
) as typeof import('sharp').default
sharp.concurrency(1)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3)
const SIDES = [400, 800, 1200, 1600, 2400]
const SAMPLES = ['hubble_deep_field.jpg', 'coffee.png', 'astronaut.png']

async function best(encode: () => Promise<Buffer>): Promise<{ ms: number; bytes: number }> {
  let ms = Number.POSITIVE_INFINITY
  let bytes = 0
  for (let run = 0; run < REPEATS; run++) {
    const start = performance.now()
    bytes = (await encode()).length
    ms = Math.min(ms, performance.now() - start)
  }
  return { ms, bytes }
}

console.log(
  `AVIF against WebP and JPEG by longer side — ${availableParallelism()} CPUs, load ${loadavg()[0]?.toFixed(1)}; ` +
    `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}); AVIF effort ${DEFAULT_OPTIONS.avifEffort}; ` +
    `best of ${REPEATS}; f_auto's limit ${DEFAULT_OPTIONS.autoAvifMaxSide} px`,
)
const rows: string[][] = []
for (const name of SAMPLES) {
  const sample = await readFile(new URL(`../apps/server/demo/samples/${name}`, import.meta.url))
  for (const side of SIDES) {
    const { data, info } = await sharp(sample)
      .resize({ width: side, height: side, fit: 'inside' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const raw = { width: info.width, height: info.height, channels: info.channels }
    const input = () => sharp(data, { raw })
    const avif = await best(() =>
      input().avif({ quality: 50, effort: DEFAULT_OPTIONS.avifEffort }).toBuffer(),
    )
    const webp = await best(() => input().webp({ quality: 80, effort: 4 }).toBuffer())
    const jpeg = await best(() => input().jpeg({ quality: 80, mozjpeg: false }).toBuffer())
    const kib = (bytes: number) => (bytes / 1024).toFixed(0)
    rows.push([
      name,
      `${info.width}×${info.height}`,
      avif.ms.toFixed(0),
      webp.ms.toFixed(0),
      jpeg.ms.toFixed(0),
      (avif.ms / webp.ms).toFixed(1),
      kib(avif.bytes),
      kib(webp.bytes),
      kib(jpeg.bytes),
      `${((1 - avif.bytes / webp.bytes) * 100).toFixed(0)} %`,
    ])
  }
}
printTable(
  [
    'sample',
    'output',
    'AVIF ms',
    'WebP ms',
    'JPEG ms',
    'AVIF/WebP time',
    'AVIF KiB',
    'WebP KiB',
    'JPEG KiB',
    'AVIF smaller than WebP by',
  ],
  rows,
  [false, false, true, true, true, true, true, true, true, true],
)
