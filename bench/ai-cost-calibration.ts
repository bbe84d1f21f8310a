// Calibrates packages/ai/src/cost.ts on this machine: each model family's time at two input
// sizes, fitted to `ms = fixed + perMegapixel × input megapixels` (warm: each call is run once
// first to load its model). Run: `npx tsx bench/ai-cost-calibration.ts` (a few minutes).
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

for (const [key, values, sizes] of CASES) {
  const params = paramsOf(key, values)
  const times: number[] = []
  for (const [width, height] of sizes) {
    const image = await imageOf(width, height)
    await ai.run({ key, image: await imageOf(64, 64), params })
    const started = performance.now()
    await ai.run({ key, image, params })
    times.push(performance.now() - started)
  }
  const [[w0, h0], [w1, h1]] = sizes as [[number, number], [number, number]]
  const mp0 = (w0 * h0) / 1e6
  const mp1 = (w1 * h1) / 1e6
  const [t0 = 0, t1 = 0] = times
  const perMegapixel = Math.max(0, (t1 - t0) / (mp1 - mp0))
  const fixed = Math.max(0, t0 - perMegapixel * mp0)
  console.log(
    JSON.stringify({
      key,
      values,
      ms: times.map(Math.round),
      fixed: Math.round(fixed),
      perMegapixel: Math.round(perMegapixel),
    }),
  )
}
await ai.close()
