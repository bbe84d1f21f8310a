// Calibrates packages/ai/src/cost.ts on this machine: each model family's time at two input
// sizes, fitted to `ms = fixed + perMegapixel × input megapixels` (warm: each call is run once
// first to load its model). Run: `npx tsx bench/ai-cost-calibration.ts` (a few minutes);
// `AI_COST_ONLY=sr.upscale` runs only the cases whose key starts with that.
//
// On a loaded machine every figure is several times the quiet one, so each timed call is
// preceded by a reference — ocr.extract of 512² (0.14 s on the quiet machine, docs/benchmarks.md)
// — and its time is printed as well: `scaled` is the case's time × 140 ms ÷ the reference's,
// what the quiet machine would take if the load slows both alike.
import { createAi } from '@tessera/ai'
import sharp from 'sharp'
import { paramsOf } from '../packages/ai/src/test-support.ts'

const SAMPLE = new URL('../apps/server/demo/samples/astronaut.png', import.meta.url).pathname

async function imageOf(width: number, height: number) {
  const { data, info } = await sharp(SAMPLE)
    .resize(width, height, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

const ai = createAi({ timeoutMs: 600_000, maxInputPixels: 100_000_000 })
const CASES: [string, Record<string, string | boolean | number>, [number, number][]][] = [
  [
    'sr.upscale',
    { t: '2x', model: 'Flash' },
    [
      [128, 128],
      [256, 256],
    ],
  ],
  [
    'sr.upscale',
    { t: '4x', model: 'Flash' },
    [
      [128, 128],
      [256, 256],
    ],
  ],
  [
    'sr.upscale',
    { t: '2x', model: 'Picasso' },
    [
      [128, 128],
      [256, 256],
    ],
  ],
  [
    'sr.upscale',
    { t: '8x', model: 'Flash' },
    [
      [64, 64],
      [128, 128],
    ],
  ],
  [
    'sr.upscale',
    { t: '4x', model: 'Picasso' },
    [
      [128, 128],
      [256, 256],
    ],
  ],
  [
    'sr.upscale',
    { t: '8x', model: 'Picasso' },
    [
      [64, 64],
      [128, 128],
    ],
  ],
  [
    'erase.bg',
    {},
    [
      [512, 512],
      [2000, 2000],
    ],
  ],
  [
    'ocr.extract',
    {},
    [
      [512, 512],
      [1600, 1600],
    ],
  ],
  [
    'wm.remove',
    { box1: '10_10_30_30' },
    [
      [512, 512],
      [2000, 2000],
    ],
  ],
  [
    'od.detect',
    {},
    [
      [512, 512],
      [2000, 2000],
    ],
  ],
  [
    'im.mask',
    { d: 'face' },
    [
      [512, 512],
      [2000, 2000],
    ],
  ],
  [
    'nsfw.detect',
    {},
    [
      [512, 512],
      [2000, 2000],
    ],
  ],
]

const ONLY = process.env.AI_COST_ONLY ?? ''
/** ocr.extract of 512² on the quiet machine (docs/benchmarks.md, quiet runs): 0.14 s. */
const REFERENCE_QUIET_MS = 140
const referenceParams = paramsOf('ocr.extract', {})
const referenceImage = await imageOf(512, 512)
await ai.run({ key: 'ocr.extract', image: referenceImage, params: referenceParams })

/** The reference's time now: the median of three calls. */
async function referenceMs(): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    await ai.run({ key: 'ocr.extract', image: referenceImage, params: referenceParams })
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[1] as number
}

for (const [key, values, sizes] of CASES) {
  if (!key.startsWith(ONLY)) continue
  const params = paramsOf(key, values)
  const times: number[] = []
  const scaled: number[] = []
  for (const [width, height] of sizes) {
    const image = await imageOf(width, height)
    await ai.run({ key, image: await imageOf(64, 64), params })
    const before = await referenceMs()
    const started = performance.now()
    await ai.run({ key, image, params })
    const ms = performance.now() - started
    const after = await referenceMs()
    times.push(ms)
    scaled.push((ms * REFERENCE_QUIET_MS) / ((before + after) / 2))
  }
  const fit = (ms: number[]) => {
    const [[w0, h0], [w1, h1]] = sizes as [[number, number], [number, number]]
    const mp0 = (w0 * h0) / 1e6
    const mp1 = (w1 * h1) / 1e6
    const [t0 = 0, t1 = 0] = ms
    const perMegapixel = Math.max(0, (t1 - t0) / (mp1 - mp0))
    const fixed = Math.max(0, t0 - perMegapixel * mp0)
    return { fixed: Math.round(fixed), perMegapixel: Math.round(perMegapixel) }
  }
  console.log(
    JSON.stringify({
      key,
      values,
      ms: times.map(Math.round),
      ...fit(times),
      scaledMs: scaled.map(Math.round),
      scaled: fit(scaled),
    }),
  )
}
await ai.close()
