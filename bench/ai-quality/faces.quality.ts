// Faces: group photos made from the two portraits of the samples (their faces annotated by hand,
// brows to chin and ear to ear), their heads composited at known places and scales on photos:
// a row, a crowd of small faces, a large group photo (faces small against the whole), and
// turned or tilted heads (mirrored, darkened, greyscale, rotated ±25°). Also the two portraits
// themselves. Measured: recall and precision of the boxes of im.mask(d:face)'s detector (a
// match at IoU ≥ 0.3: annotations and detectors draw face boxes differently), the share of each
// face that im.mask(d:face) covers, and whether ic.crop(g:face) at 1:1 keeps every face whole
// when all faces fit in the crop; and false positives on three photos with no face. `AI_QUALITY_SAVE=dir` writes the scenes there to look at.
import { type AiImage, createAi } from '@tessera/ai'
import sharp from 'sharp'
import { findFaces } from '../../packages/ai/src/detect.ts'
import { ModelPools } from '../../packages/ai/src/pool.ts'
import { resolveAiSettings } from '../../packages/ai/src/settings.ts'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import { type Box, boxCoverage, matchBoxes, printRows } from './metrics.ts'

const SAMPLES = new URL('../../apps/server/demo/samples/', import.meta.url)

/** The faces of the portraits, annotated by hand on the 512² originals. */
const PORTRAITS: Record<string, Box> = {
  'astronaut.png': { x: 177, y: 80, width: 96, height: 105 },
  'camera.png': { x: 180, y: 115, width: 76, height: 82 },
}

interface Head {
  source: keyof typeof PORTRAITS
  /** Width of the face in the scene, in pixels. */
  face: number
  /** Centre of the face in the scene. */
  x: number
  y: number
  flop?: boolean
  /** Brightness factor. */
  light?: number
  /** Degrees, clockwise. */
  angle?: number
  grey?: boolean
}

interface Scene {
  name: string
  width: number
  height: number
  background: string
  heads: Head[]
}

function grid(
  columns: number,
  rows: number,
  width: number,
  height: number,
  face: (i: number) => number,
): Head[] {
  const heads: Head[] = []
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const i = r * columns + c
      heads.push({
        source: i % 2 === 0 ? 'astronaut.png' : 'camera.png',
        face: face(i),
        x: Math.round(((c + 0.5) * width) / columns + ((r % 2) * width) / columns / 4),
        y: Math.round(((r + 0.5) * height) / rows),
        flop: i % 3 === 1,
        light: i % 4 === 3 ? 0.6 : 1,
        grey: i % 5 === 4,
      })
    }
  }
  return heads
}

const SCENES: Scene[] = [
  {
    name: 'row of 4, 1200×600',
    width: 1200,
    height: 600,
    background: 'rocket.jpg',
    heads: grid(4, 1, 1200, 600, () => 110),
  },
  {
    name: 'crowd of 15, 1600×900',
    width: 1600,
    height: 900,
    background: 'coffee.png',
    heads: grid(5, 3, 1600, 900, (i) => 40 + (i % 3) * 12),
  },
  {
    name: 'group of 12, 4000×2400',
    width: 4000,
    height: 2400,
    background: 'hubble_deep_field.jpg',
    heads: grid(4, 3, 3000, 2000, () => 75).map((h) => ({ ...h, x: h.x + 400, y: h.y + 200 })),
  },
  {
    name: 'three friends, 1400×520',
    width: 1400,
    height: 520,
    background: 'coffee.png',
    heads: [
      { source: 'astronaut.png', face: 90, x: 230, y: 250 },
      { source: 'camera.png', face: 80, x: 390, y: 270, flop: true },
      { source: 'astronaut.png', face: 70, x: 540, y: 240, grey: true },
    ],
  },
  {
    name: 'tilted and turned, 1000×700',
    width: 1000,
    height: 700,
    background: 'chelsea.png',
    heads: [
      { source: 'astronaut.png', face: 120, x: 200, y: 200, angle: 25 },
      { source: 'camera.png', face: 110, x: 500, y: 220, angle: -20, flop: true },
      { source: 'astronaut.png', face: 100, x: 800, y: 200, angle: -25, flop: true },
      { source: 'camera.png', face: 90, x: 300, y: 520, angle: 15, light: 0.55 },
      { source: 'astronaut.png', face: 80, x: 700, y: 520, angle: 10, grey: true },
    ],
  },
]

async function photo(name: string, width: number, height: number): Promise<Buffer> {
  return await sharp(new URL(name, SAMPLES).pathname)
    .removeAlpha()
    .resize(width, height, { fit: 'cover' })
    .png()
    .toBuffer()
}

/** A head (the face grown to twice its width) placed so the face lands on (x, y); its box. */
async function head(spec: Head): Promise<{ input: Buffer; left: number; top: number; box: Box }> {
  const face = PORTRAITS[spec.source] as Box
  const side = Math.round(face.width * 2)
  const cx = face.x + face.width / 2
  const cy = face.y + face.height / 2
  const left = Math.max(0, Math.round(cx - side / 2))
  const top = Math.max(0, Math.round(cy - side / 2))
  const scale = spec.face / face.width
  let pipeline = sharp(new URL(spec.source, SAMPLES).pathname)
    .extract({ left, top, width: Math.min(side, 512 - left), height: Math.min(side, 512 - top) })
    .removeAlpha()
  if (spec.flop) pipeline = pipeline.flop()
  if (spec.grey) pipeline = pipeline.greyscale()
  if (spec.light !== undefined && spec.light !== 1)
    pipeline = pipeline.modulate({ brightness: spec.light })
  const cropW = Math.min(side, 512 - left)
  const cropH = Math.min(side, 512 - top)
  const scaledW = Math.round(cropW * scale)
  const scaledH = Math.round(cropH * scale)
  let png = await pipeline.resize(scaledW, scaledH).toColourspace('srgb').png().toBuffer()
  // The face's centre within the head, mirrored with it.
  let fx = (cx - left) * scale
  const fy = (cy - top) * scale
  if (spec.flop) fx = scaledW - fx
  let w = scaledW
  let h = scaledH
  let faceX = fx
  let faceY = fy
  const angle = spec.angle ?? 0
  if (angle !== 0) {
    png = await sharp(png)
      .ensureAlpha()
      .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer()
    const meta = await sharp(png).metadata()
    const t = (angle * Math.PI) / 180
    const dx = fx - scaledW / 2
    const dy = fy - scaledH / 2
    w = meta.width ?? w
    h = meta.height ?? h
    faceX = w / 2 + dx * Math.cos(t) - dy * Math.sin(t)
    faceY = h / 2 + dx * Math.sin(t) + dy * Math.cos(t)
  }
  const placeX = Math.round(spec.x - faceX)
  const placeY = Math.round(spec.y - faceY)
  const fw = face.width * scale
  const fh = face.height * scale
  return {
    input: png,
    left: placeX,
    top: placeY,
    box: {
      x: Math.round(spec.x - fw / 2),
      y: Math.round(spec.y - fh / 2),
      width: Math.round(fw),
      height: Math.round(fh),
    },
  }
}

async function render(
  scene: Scene,
  save = process.env.AI_QUALITY_SAVE,
): Promise<{ image: AiImage; faces: Box[] }> {
  const heads = await Promise.all(scene.heads.map(head))
  const { data, info } = await sharp(await photo(scene.background, scene.width, scene.height))
    .composite(heads.map(({ input, left, top }) => ({ input, left, top })))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  if (save !== undefined) {
    const name = scene.name.replace(/[^a-z0-9]+/gi, '-')
    await sharp(data, { raw: info }).jpeg().toFile(`${save}/faces-${name}.jpg`)
  }
  // No pure black in the scene: black after im.mask(m:fill_black) is then the mask alone.
  for (let i = 0; i < data.length; i++) if (data[i] === 0) data[i] = 1
  return {
    image: { data, width: info.width, height: info.height, channels: 3 },
    faces: heads.map((h) => h.box),
  }
}

async function portrait(name: keyof typeof PORTRAITS): Promise<{ image: AiImage; faces: Box[] }> {
  const { data, info } = await sharp(new URL(name, SAMPLES).pathname)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
  // No pure black in the scene: black after im.mask(m:fill_black) is then the mask alone.
  for (let i = 0; i < data.length; i++) if (data[i] === 0) data[i] = 1
  for (let i = 0; i < data.length; i++) if (data[i] === 0) data[i] = 1
  return {
    image: { data, width: info.width, height: info.height, channels: 3 },
    faces: [PORTRAITS[name] as Box],
  }
}

/** Pixels im.mask(m:fill_black) turned black that were not black before. */
function blackened(before: AiImage, after: AiImage): Uint8Array {
  const mask = new Uint8Array(before.width * before.height)
  const c = after.channels
  for (let i = 0; i < mask.length; i++) {
    const was =
      (before.data[3 * i] as number) +
      (before.data[3 * i + 1] as number) +
      (before.data[3 * i + 2] as number)
    const now =
      (after.data[c * i] as number) +
      (after.data[c * i + 1] as number) +
      (after.data[c * i + 2] as number)
    mask[i] = now === 0 && was > 0 ? 255 : 0
  }
  return mask
}

/** The 1:1 crop ic.crop centres on a focus box (as packages/engine/src/smart-crop.ts does). */
function squareCrop(
  focus: { left: number; top: number; width: number; height: number },
  image: AiImage,
): Box {
  const side = Math.min(image.width, image.height)
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v))
  const x = clamp(Math.round(focus.left + focus.width / 2 - side / 2), image.width - side)
  const y = clamp(Math.round(focus.top + focus.height / 2 - side / 2), image.height - side)
  return { x, y, width: side, height: side }
}

const inside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height

const ai = createAi({ timeoutMs: 600_000 })
const pools = new ModelPools(resolveAiSettings({ timeoutMs: 600_000 }))
const rows: Record<string, string | number>[] = []
let truthTotal = 0
let hitTotal = 0
let foundTotal = 0
let rightTotal = 0
try {
  const cases = [
    { name: 'astronaut.png (hand)', ...(await portrait('astronaut.png')) },
    { name: 'camera.png (hand)', ...(await portrait('camera.png')) },
  ]
  for (const scene of SCENES) cases.push({ name: scene.name, ...(await render(scene)) })
  // Photos with no face at all: anything found there is a false positive.
  for (const name of ['chelsea.png', 'coffee.png', 'rocket.jpg']) {
    const { data, info } = await sharp(new URL(name, SAMPLES).pathname)
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true })
    for (let i = 0; i < data.length; i++) if (data[i] === 0) data[i] = 1
    const image = { data, width: info.width, height: info.height, channels: 3 as const }
    cases.push({ name: `${name} (no face)`, image, faces: [] })
  }
  for (const { name, image, faces } of cases) {
    const started = performance.now()
    const masked = await ai.run({
      key: 'im.mask',
      image,
      params: paramsOf('im.mask', { d: 'face', m: 'fill_black' }),
    })
    const seconds = (performance.now() - started) / 1000
    const black = blackened(image, masked.image)
    // The boxes of the detector im.mask and ic.crop use (ic.crop's focus is their union).
    const focus = await ai.focus('face', image)
    const detected = (await findFaces(pools, image, 'bench')).map(({ box }) => ({
      x: box.left,
      y: box.top,
      width: box.width,
      height: box.height,
    }))
    const match = matchBoxes(faces, detected, 0.3)
    const covers = faces.map((face) => boxCoverage(black, image.width, face))
    if (faces.length === 0) {
      foundTotal += detected.length
      rows.push({
        case: name,
        faces: 0,
        found: detected.length,
        recall: '—',
        precision: detected.length === 0 ? 1 : 0,
        'mask cover (mean)': '—',
        'mask cover (min)': '—',
        'crop 1:1 keeps': '—',
        's (im.mask)': seconds,
      })
      continue
    }
    const union = faces.reduce((u, f) => ({
      x: Math.min(u.x, f.x),
      y: Math.min(u.y, f.y),
      width: Math.max(u.x + u.width, f.x + f.width) - Math.min(u.x, f.x),
      height: Math.max(u.y + u.height, f.y + f.height) - Math.min(u.y, f.y),
    }))
    const side = Math.min(image.width, image.height)
    const fits = union.width <= side && union.height <= side
    const crop = focus === undefined ? undefined : squareCrop(focus, image)
    const kept = crop === undefined ? 0 : faces.filter((face) => inside(face, crop)).length
    truthTotal += faces.length
    hitTotal += Math.round(match.recall * faces.length)
    foundTotal += detected.length
    rightTotal += Math.round(match.precision * detected.length)
    rows.push({
      case: name,
      faces: faces.length,
      found: detected.length,
      recall: match.recall,
      precision: match.precision,
      'mask cover (mean)': covers.reduce((a, b) => a + b, 0) / covers.length,
      'mask cover (min)': Math.min(...covers),
      'crop 1:1 keeps': fits ? `${kept}/${faces.length}` : 'do not fit',
      's (im.mask)': seconds,
    })
  }
  rows.push({
    case: 'all',
    faces: truthTotal,
    found: foundTotal,
    recall: hitTotal / truthTotal,
    precision: foundTotal === 0 ? 1 : rightTotal / foundTotal,
    'mask cover (mean)': '',
    'mask cover (min)': '',
    'crop 1:1 keeps': '',
    's (im.mask)': '',
  })
  printRows(rows)
} finally {
  await ai.close()
  await pools.close()
}
