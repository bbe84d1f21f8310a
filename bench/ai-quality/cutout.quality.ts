// Background removal against ground truth: foregrounds with known alpha composited over plain,
// busy and hard backgrounds (cutout-scenes.ts). For each: IoU of the binary mask, mean
// absolute alpha error, the error in a band around the true edge, the share of the visible
// cut-out that is semi-transparent (a "ghost" is mostly that), and the PSNR of the edge
// colours once the cut-out is put on a new background (a halo of the old one lowers it).
// Then: transparent inputs (the result may never be more opaque than the input), the output
// format for every source format through the engine, and time per image.
// `AI_QUALITY_CUTOUT_RAW=0` skips the raw ISNet small/medium rows (they double the run time);
// `AI_QUALITY_CUTOUT_PARTS=timing` (any of masks, transparency, formats, timing) runs only those.
import { loadavg } from 'node:os'
import { type AiImage, createAi } from '@tessera/ai'
import { createEngine } from '@tessera/engine'
import { parsePattern } from '@tessera/url'
import sharp, { type FormatEnum } from 'sharp'
import { cutoutMatte } from '../../packages/ai/src/matte.ts'
import { isnetMask } from '../../packages/ai/src/models/isnet.ts'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import {
  alphaOf,
  composite,
  type Foreground,
  flat,
  largeScene,
  type Pixels,
  scenes,
  transparentInputs,
} from './cutout-scenes.ts'
import { edgeBand, maskIou, meanAbsError, meanAbsErrorWhere, printRows, psnr } from './metrics.ts'

const ai = createAi({ timeoutMs: 600_000 })
const engine = createEngine({ ai, timeoutMs: 600_000 })
const raw = process.env.AI_QUALITY_CUTOUT_RAW !== '0'
const threads = ai.settings.threads

/** Mask measures against the truth; `colour` is the RGBA cut-out when there is one. */
function measure(
  truth: Uint8Array,
  found: Uint8Array,
  width: number,
  height: number,
  foreground: Foreground,
  colour?: Pixels,
) {
  const band = edgeBand(truth, width, height, Math.max(3, Math.round(width / 160)))
  let visible = 0
  let semi = 0
  for (const value of found) {
    if (value >= 16) visible += 1
    if (value >= 16 && value < 240) semi += 1
  }
  const grey = flat(width, height, [128, 128, 128])
  const edgeColour =
    colour === undefined
      ? Number.NaN
      : psnr(composite(colour, grey).data, composite(foreground, grey).data, 3, band)
  return {
    IoU: maskIou(truth, found),
    'alpha MAE': meanAbsError(truth, found),
    'edge MAE': meanAbsErrorWhere(truth, found, band),
    'semi %': (100 * semi) / Math.max(1, visible),
    'edge PSNR': edgeColour,
  }
}

async function eraseBg(image: Pixels): Promise<{ image: AiImage; seconds: number }> {
  const started = performance.now()
  const result = await ai.run({ key: 'erase.bg', image, params: paramsOf('erase.bg') })
  return { image: result.image, seconds: (performance.now() - started) / 1000 }
}

function channelOf(image: AiImage, index: number): Uint8Array {
  const out = new Uint8Array(image.width * image.height)
  for (let i = 0; i < out.length; i++) out[i] = image.data[i * image.channels + index] as number
  return out
}

async function masks(): Promise<void> {
  const rows: Record<string, string | number>[] = []
  const summary = new Map<string, number[]>()
  const note = (key: string, value: number) =>
    summary.set(key, [...(summary.get(key) ?? []), value])
  // Warm-up: the model loads once, outside the timings.
  const all = await scenes()
  const first = all[0]
  if (first !== undefined) await eraseBg(first.image)
  for (const scene of all) {
    const { width, height } = scene.image
    const ours = await eraseBg(scene.image)
    const row = measure(scene.alpha, channelOf(ours.image, 3), width, height, scene.foreground, {
      ...ours.image,
      data: Buffer.from(ours.image.data),
    })
    rows.push({ scene: scene.name, group: scene.group, run: 'erase.bg', ...row, s: ours.seconds })
    note(`erase.bg ${scene.group}`, row.IoU)
    if (!raw) continue
    for (const size of ['small', 'medium'] as const) {
      const started = performance.now()
      const mask = await isnetMask(scene.image, size, threads)
      const seconds = (performance.now() - started) / 1000
      const found = measure(scene.alpha, mask, width, height, scene.foreground)
      rows.push({
        scene: scene.name,
        group: scene.group,
        run: `isnet ${size} raw`,
        ...found,
        s: seconds,
      })
      note(`isnet ${size} raw ${scene.group}`, found.IoU)
      // The same mask through the cut-out refinement (matte.ts) that erase.bg applies.
      const refineStarted = performance.now()
      const matte = cutoutMatte(scene.image, mask)
      const refineSeconds = (performance.now() - refineStarted) / 1000
      const rgba = Buffer.alloc(width * height * 4)
      for (let i = 0; i < width * height; i++) {
        rgba.set(matte.colour.subarray(3 * i, 3 * i + 3), 4 * i)
        rgba[4 * i + 3] = matte.alpha[i] as number
      }
      const refined = measure(scene.alpha, matte.alpha, width, height, scene.foreground, {
        data: rgba,
        width,
        height,
        channels: 4,
      })
      rows.push({
        scene: scene.name,
        group: scene.group,
        run: `isnet ${size} refined${matte.ghost ? ' (ghost)' : ''}`,
        ...refined,
        s: seconds + refineSeconds,
      })
      note(`isnet ${size} refined ${scene.group}`, refined.IoU)
    }
  }
  printRows(rows)
  console.log('\nMean (and lowest) mask IoU per group:\n')
  printRows(
    [...summary].map(([key, values]) => ({
      run: key,
      'mean IoU': values.reduce((a, b) => a + b, 0) / values.length,
      'min IoU': Math.min(...values),
    })),
  )
}

async function transparency(): Promise<void> {
  const rows: Record<string, string | number>[] = []
  const names = ['mug over transparency', 'half-transparent glass', 'shapes+text']
  const inputs = await transparentInputs()
  for (const [index, input] of inputs.entries()) {
    const truth = alphaOf(input)
    const { image } = await eraseBg(input)
    const found = channelOf(image, 3)
    let excess = 0
    let leaked = 0
    let clear = 0
    for (let i = 0; i < truth.length; i++) {
      excess = Math.max(excess, (found[i] as number) - (truth[i] as number))
      if (truth[i] === 0) {
        clear += 1
        if ((found[i] as number) > 0) leaked += 1
      }
    }
    rows.push({
      input: names[index] ?? String(index),
      'IoU vs input alpha': maskIou(truth, found),
      'alpha MAE': meanAbsError(truth, found),
      'max alpha above input': excess,
      'transparent px made visible %': (100 * leaked) / Math.max(1, clear),
    })
  }
  printRows(rows)
}

async function encodeAs(image: Pixels, format: string): Promise<Buffer> {
  const pipeline = sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels as 3 | 4 },
  })
  return await pipeline.toFormat(format as keyof FormatEnum).toBuffer()
}

async function formats(): Promise<void> {
  const scene = (await scenes()).find((s) => s.name === 'mug / plain')
  if (scene === undefined) return
  const cases: { source: string; pattern: string; accept?: string; autoFormat?: boolean }[] = [
    ...['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'].map((source) => ({
      source,
      pattern: 'erase.bg()',
    })),
    { source: 'jpeg', pattern: 'erase.bg()', accept: 'image/avif,image/webp', autoFormat: true },
    { source: 'jpeg', pattern: 'erase.bg()', accept: 'image/webp', autoFormat: true },
    { source: 'jpeg', pattern: 'erase.bg()', accept: 'image/png', autoFormat: true },
    { source: 'jpeg', pattern: 't.resize(w:320)~erase.bg()~t.extend(t:10,bc:00000000)' },
    { source: 'jpeg', pattern: 'erase.bg()~t.toFormat(f:jpeg)' },
    { source: 'jpeg', pattern: 'erase.bg(shadow:true)' },
  ]
  const rows: Record<string, string | number>[] = []
  for (const item of cases) {
    const input = await encodeAs(scene.image, item.source)
    const result = await engine.transform({
      input,
      operations: parsePattern(item.pattern).value,
      ...(item.accept === undefined ? {} : { accept: item.accept }),
      autoFormat: item.autoFormat === true,
    })
    const out = await sharp(result.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const corner = out.data[3] as number
    rows.push({
      source: item.source,
      chain: item.pattern,
      'f_auto Accept': item.autoFormat === true ? (item.accept ?? '') : '-',
      answered: result.format,
      'corner alpha': corner,
      transparent: corner < 8 ? 'yes' : 'no',
    })
  }
  printRows(rows)
}

async function timing(): Promise<void> {
  const rows: Record<string, string | number>[] = []
  for (const side of [1000, 2000]) {
    const image = await largeScene(side)
    const input = await encodeAs(image, 'jpeg')
    const operations = parsePattern('erase.bg()').value
    await engine.transform({ input, operations })
    const times: number[] = []
    for (let turn = 0; turn < 3; turn++) {
      const started = performance.now()
      await engine.transform({ input, operations })
      times.push((performance.now() - started) / 1000)
    }
    times.sort((a, b) => a - b)
    rows.push({
      run: 'erase.bg (engine, JPEG in, encoded out), warm',
      megapixels: (side * side) / 1e6,
      'median s': times[1] ?? 0,
      'min s': times[0] ?? 0,
      // Two cores shared with other work: the load says how much of them this run had.
      'load avg': loadavg()[0] ?? 0,
    })
  }
  if (raw) {
    const image = await largeScene(1000)
    for (const size of ['small', 'medium'] as const) {
      await isnetMask(image, size, threads)
      const started = performance.now()
      for (let turn = 0; turn < 3; turn++) await isnetMask(image, size, threads)
      rows.push({
        run: `isnet ${size} raw (main thread, ${threads} threads), warm`,
        megapixels: 1,
        'median s': (performance.now() - started) / 3000,
        'min s': Number.NaN,
        'load avg': loadavg()[0] ?? 0,
      })
    }
  }
  printRows(rows)
}

const parts = (process.env.AI_QUALITY_CUTOUT_PARTS ?? 'masks,transparency,formats,timing').split(
  ',',
)
const PARTS: [string, string, () => Promise<void>][] = [
  ['masks', 'Masks against the true alpha (640×480 composites)', masks],
  ['transparency', 'Inputs with transparency', transparency],
  ['formats', 'Output format through the engine (no t.toFormat unless shown)', formats],
  ['timing', 'Time per image', timing],
]
try {
  for (const [name, title, run] of PARTS) {
    if (!parts.includes(name)) continue
    console.log(`\n### ${title}\n`)
    await run()
  }
} finally {
  await engine.close()
  await ai.close()
}
