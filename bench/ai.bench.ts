// Benchmarks the AI operations of @tessera/ai: per operation, time per image and per
// megapixel through the service (worker pool, one inference at a time), the same model called
// directly in one process (the limit), their ratio, and the resident memory of a process that
// ran it. Each operation runs in its own child process, so its memory reading holds one model.
// Run with `npm run bench:ai` (from the repo root or bench/).
import { execFile } from 'node:child_process'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type AiImage, createAi } from '@tessera/ai'
import sharp from 'sharp'
import { esrganUpscale } from '../packages/ai/src/models/esrgan.ts'
import { detectFaces } from '../packages/ai/src/models/faces.ts'
import { classifyNsfw } from '../packages/ai/src/models/nsfw.ts'
import { detectObjects } from '../packages/ai/src/models/objects.ts'
import { readText } from '../packages/ai/src/models/ocr.ts'
import { paramsOf } from '../packages/ai/src/test-support.ts'
import { printTable } from './table.ts'

const SAMPLES = new URL('../apps/server/demo/samples/', import.meta.url)
const ROUNDS = Number(process.env.AI_BENCH_ROUNDS ?? 3)
const THREADS = cpus().length

interface Case {
  key: string
  sample: string
  /** Width the sample is resized to (keeps aspect). */
  width: number
  params?: Record<string, string | number | boolean>
  /** The model called directly, in this process, on the same input. */
  direct: (image: AiImage) => Promise<unknown>
}

async function load(name: string, width: number): Promise<AiImage> {
  const { data, info } = await sharp(new URL(name, SAMPLES).pathname)
    .removeAlpha()
    .resize({ width })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

async function imglyDirect(image: AiImage): Promise<unknown> {
  // The package's own entry point, as its README shows it: the reference for erase.bg.
  const { removeBackground } = await import('@imgly/background-removal-node')
  const png = await sharp(image.data, { raw: image }).png().toBuffer()
  const publicPath = `${new URL('../node_modules/@imgly/background-removal-node/dist/', import.meta.url).href}`
  return await removeBackground(new Blob([png], { type: 'image/png' }), {
    publicPath,
    model: 'small',
  })
}

const CASES: readonly Case[] = [
  { key: 'erase.bg', sample: 'coffee.png', width: 1000, params: { r: false }, direct: imglyDirect },
  // A photo-sized input: ISNet always sees 1024², so the time per megapixel falls as inputs grow.
  { key: 'erase.bg', sample: 'coffee.png', width: 2400, params: { r: false }, direct: imglyDirect },
  {
    key: 'sr.upscale',
    sample: 'chelsea.png',
    width: 256,
    params: { model: 'Flash', t: '2x' },
    direct: (image) => esrganUpscale(image, 'slim', 2, THREADS),
  },
  {
    key: 'sr.upscale',
    sample: 'chelsea.png',
    width: 256,
    params: { model: 'Picasso', t: '2x' },
    direct: (image) => esrganUpscale(image, 'medium', 2, THREADS),
  },
  {
    key: 'od.detect',
    sample: 'astronaut.png',
    width: 512,
    direct: (image) => detectObjects(image, THREADS),
  },
  {
    key: 'ocr.extract',
    sample: 'astronaut-wm.png',
    width: 512,
    direct: (image) => readText(image),
  },
  {
    key: 'nsfw.detect',
    sample: 'coffee.png',
    width: 512,
    direct: (image) => classifyNsfw(image, THREADS),
  },
  {
    key: 'ic.crop',
    sample: 'astronaut.png',
    width: 512,
    direct: (image) => detectFaces(image, THREADS),
  },
]

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run() // warm-up: loads the model
  const start = performance.now()
  for (let i = 0; i < ROUNDS; i++) await run()
  return (performance.now() - start) / ROUNDS
}

// Child: one case, service then direct, prints JSON.
async function child(index: number): Promise<void> {
  const item = CASES[index] as Case
  const image = await load(item.sample, item.width)
  const ai = createAi({ timeoutMs: 3_600_000 })
  const service = await timed(() =>
    item.key === 'ic.crop'
      ? ai.focus('face', image)
      : ai.run({ key: item.key, image, params: paramsOf(item.key, item.params ?? {}) }),
  )
  const rss = process.memoryUsage().rss
  await ai.close()
  const direct = await timed(() => item.direct(image))
  console.log(JSON.stringify({ service, direct, rss, width: image.width, height: image.height }))
}

async function parent(): Promise<void> {
  const run = promisify(execFile)
  const rows: string[][] = []
  for (let index = 0; index < CASES.length; index++) {
    const item = CASES[index] as Case
    const { stdout } = await run(
      process.execPath,
      [fileURLToPath(import.meta.url), String(index)],
      {
        maxBuffer: 1 << 20,
        timeout: 3_600_000,
      },
    )
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')
    const megapixels = (result.width * result.height) / 1e6
    const label = `${item.key}${item.params?.model === undefined ? '' : `(${item.params.model})`}${item.key === 'ic.crop' ? '(g:face)' : ''}`
    rows.push([
      label,
      `${result.width}×${result.height}`,
      (result.service / 1000).toFixed(2),
      (result.service / 1000 / megapixels).toFixed(2),
      (result.direct / 1000).toFixed(2),
      `${(result.direct / result.service).toFixed(2)}×`,
      `${Math.round(result.rss / 2 ** 20)}`,
    ])
  }
  console.log(
    `AI operations, ${ROUNDS} rounds after a warm-up, ${cpus().length} cores, Node ${process.version}\n`,
  )
  printTable(
    ['operation', 'input', 's/image', 's/MP', 'direct s/image', 'ratio', 'RSS MiB'],
    rows,
    [false, true, true, true, true, true, true],
  )
}

const index = process.argv[2]
if (index === undefined) await parent()
else await child(Number(index))
