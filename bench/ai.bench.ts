// Benchmarks the AI operations of @tessera/ai: per operation, time per image and per
// megapixel through the service (worker pool, one inference at a time), the same model called
// directly in one process (the limit), their ratio, and the resident memory of a process that
// ran it. Each operation runs in its own child process, so its memory reading holds one model.
// Run with `npm run bench:ai` (from the repo root or bench/).
import { execFile } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
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

interface Timing {
  /** Mean wall time of one call, ms. */
  wall: number
  /** Mean CPU time of the whole process (every thread) during one call, ms. */
  cpu: number
}

async function measure(run: () => Promise<unknown>): Promise<Timing> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  await run()
  const used = process.cpuUsage(cpu)
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 }
}

function mean(timings: readonly Timing[]): Timing {
  const sum = (pick: (timing: Timing) => number) =>
    timings.reduce((total, timing) => total + pick(timing), 0) / timings.length
  return { wall: sum((timing) => timing.wall), cpu: sum((timing) => timing.cpu) }
}

// Child: one case, prints JSON. Both ways are warmed up (the model loaded) first, then they take
// turns, round by round, so a change in the machine's load meets both alike.
async function child(index: number): Promise<void> {
  const item = CASES[index] as Case
  const image = await load(item.sample, item.width)
  const ai = createAi({ timeoutMs: 3_600_000 })
  const service = () =>
    item.key === 'ic.crop'
      ? ai.focus('face', image)
      : ai.run({ key: item.key, image, params: paramsOf(item.key, item.params ?? {}) })
  await service()
  // Read before the direct call loads its own copy of the model in this thread.
  const rss = process.memoryUsage().rss
  await item.direct(image)
  const serviceRounds: Timing[] = []
  const directRounds: Timing[] = []
  for (let round = 0; round < ROUNDS; round++) {
    serviceRounds.push(await measure(service))
    directRounds.push(await measure(() => item.direct(image)))
  }
  await ai.close()
  console.log(
    JSON.stringify({
      service: mean(serviceRounds),
      direct: mean(directRounds),
      rss,
      width: image.width,
      height: image.height,
    }),
  )
}

async function parent(): Promise<void> {
  const run = promisify(execFile)
  const rows: string[][] = []
  // `AI_BENCH_ONLY=3,5` runs those cases (indexes into CASES) alone.
  const only = process.env.AI_BENCH_ONLY?.split(',').map(Number)
  for (let index = 0; index < CASES.length; index++) {
    if (only !== undefined && !only.includes(index)) continue
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
      (result.service.wall / 1000).toFixed(2),
      (result.service.wall / 1000 / megapixels).toFixed(2),
      (result.direct.wall / 1000).toFixed(2),
      `${(result.direct.wall / result.service.wall).toFixed(2)}×`,
      `${(result.direct.cpu / result.service.cpu).toFixed(2)}×`,
      `${Math.round(result.rss / 2 ** 20)}`,
    ])
  }
  console.log(
    `AI operations, ${ROUNDS} rounds after a warm-up (service and direct in turns), ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}\n`,
  )
  printTable(
    ['operation', 'input', 's/image', 's/MP', 'direct s/image', 'ratio', 'CPU ratio', 'RSS MiB'],
    rows,
    [false, true, true, true, true, true, true, true],
  )
}

const index = process.argv[2]
if (index === undefined) await parent()
else await child(Number(index))
