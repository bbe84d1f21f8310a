// Memory of a process with every AI model loaded: one AI service runs each model family in turn
// (each family keeps its worker thread, so the models pile up as in a busy server), and the
// resident memory (RSS, every thread of the process) is read after each and sampled every 50 ms
// for the peak. Then the service is left idle past `AI_IDLE_MS` (set short here) and RSS is read
// again: the threads end and their models go. `AI_THREADS` and `MALLOC_ARENA_MAX` are taken from
// the environment as the server takes them.
import { type AiImage, createAi } from '@tessera/ai'
import sharp from 'sharp'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import { printRows } from './metrics.ts'

const SAMPLES = new URL('../../apps/server/demo/samples/', import.meta.url)
const IDLE_MS = 120_000
const MiB = 2 ** 20

async function image(name: string, width?: number): Promise<AiImage> {
  let pipeline = sharp(new URL(name, SAMPLES).pathname)
  if (width !== undefined) pipeline = pipeline.resize(width)
  const { data, info } = await pipeline
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

let peak = 0
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss)
}, 50)

const ai = createAi({ timeoutMs: 1_800_000, idleMs: IDLE_MS })
const astronaut = await image('astronaut.png')
const small = await image('coffee.png', 128)
const rows: Record<string, string | number>[] = []
const read = (step: string) => {
  const rss = process.memoryUsage().rss
  peak = Math.max(peak, rss)
  rows.push({
    step,
    'RSS MiB': Math.round(rss / MiB),
    'peak MiB': Math.round(peak / MiB),
  })
}

const run = (key: string, input: AiImage, values: Record<string, string | number | boolean> = {}) =>
  ai.run({ key, image: input, params: paramsOf(key, values) })

// Every step, the working ones included, ends within AI_IDLE_MS of the first (on this machine),
// so nothing unloads until the idle wait at the end.
const steps: [string, () => Promise<unknown>][] = [
  ['objects (CenterNet)', () => run('od.detect', astronaut)],
  ['faces (face-api)', () => ai.focus('face', astronaut)],
  ['nsfw (nsfwjs)', () => run('nsfw.detect', astronaut)],
  [
    'ESRGAN slim ×2 ×4',
    async () => {
      await run('sr.upscale', small, { t: '2x', model: 'Flash' })
      await run('sr.upscale', small, { t: '4x', model: 'Flash' })
    },
  ],
  [
    'ESRGAN medium ×2 ×4',
    async () => {
      await run('sr.upscale', small, { t: '2x', model: 'Picasso' })
      await run('sr.upscale', small, { t: '4x', model: 'Picasso' })
    },
  ],
  ['OCR (PaddleOCR)', () => run('ocr.extract', astronaut)],
  [
    'OpenCV, QR',
    async () => {
      await run('qr.scan', astronaut)
      await run('wm.remove', astronaut, { box1: '10_10_20_20' })
    },
  ],
  ['ISNet (erase.bg)', () => run('erase.bg', astronaut, { r: false })],
]

try {
  read('nothing (Node, sharp, the service)')
  for (const [name, step] of steps) {
    await step()
    read(name)
  }
  // Then work at photo sizes with everything loaded: the peak is the ceiling to plan for.
  const large = await image('rocket.jpg', 2400)
  const panorama = await image('hubble_deep_field.jpg', 3000)
  const working: [string, () => Promise<unknown>][] = [
    [`erase.bg ${large.width}×${large.height}`, () => run('erase.bg', large, { r: false })],
    [
      'sr.upscale Flash ×4 of 512²',
      () => run('sr.upscale', astronaut, { t: '4x', model: 'Flash' }),
    ],
    [`od.detect ${panorama.width}×${panorama.height}`, () => run('od.detect', panorama)],
    [`ocr.extract ${large.width}×${large.height}`, () => run('ocr.extract', large)],
    [`nsfw.detect ${large.width}×${large.height}`, () => run('nsfw.detect', large)],
  ]
  for (const [name, step] of working) {
    await step()
    read(`(working) ${name}`)
  }
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 5000))
  read(`(idle ${(IDLE_MS + 5000) / 1000} s: threads ended)`)
  printRows(rows)
  console.log(
    `\nAI_THREADS=${process.env.AI_THREADS ?? '(cores)'}, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '(unset)'}`,
  )
} finally {
  clearInterval(sampler)
  await ai.close()
}
