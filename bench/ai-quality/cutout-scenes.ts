// The ground truth of the background-removal area: foregrounds whose alpha is known exactly
// (drawn here, or read off a silhouette), composited over varied backgrounds. Nothing here
// comes from a model, so the figures measure the model and not a copy of it.
import { fileURLToPath } from 'node:url'
import sharp, { type Sharp } from 'sharp'

const SAMPLES = fileURLToPath(new URL('../../apps/server/demo/samples/', import.meta.url))

/** Raw pixels: `channels` bytes per pixel. */
export interface Pixels {
  data: Buffer
  width: number
  height: number
  channels: 1 | 2 | 3 | 4
}

/** A foreground over transparency: straight (not premultiplied) RGBA, alpha is the truth. */
export type Foreground = Pixels

/** One composite: the image the service sees and the alpha it should find. */
export interface Scene {
  name: string
  /** `plain`, `busy` or `hard` (the targets differ); `hair` is measured on its own:
   * its strands are thinner than the model's resolution, what counts there is edge colour. */
  group: 'plain' | 'busy' | 'hard' | 'hair'
  image: Pixels
  /** The true foreground colour, to judge edge colours after re-compositing. */
  foreground: Foreground
  /** One byte per pixel. */
  alpha: Uint8Array
}

async function raw(pipeline: Sharp, channels: 3 | 4): Promise<Pixels> {
  const piped = channels === 4 ? pipeline.ensureAlpha() : pipeline.removeAlpha()
  const { data, info } = await piped.raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels }
}

/** A sample photo cropped and resized to cover `width`×`height`, RGB. */
export async function photo(name: string, width: number, height: number): Promise<Pixels> {
  return await raw(
    sharp(`${SAMPLES}${name}`).toColourspace('srgb').resize(width, height, { fit: 'cover' }),
    3,
  )
}

/** A flat colour, RGB, with faint noise so no encoder sees a perfectly flat field. */
export function flat(width: number, height: number, rgb: readonly number[], noise = 0): Pixels {
  const data = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      const jitter = noise === 0 ? 0 : ((seed % 1000) / 1000 - 0.5) * 2 * noise
      data[3 * i + c] = Math.max(0, Math.min(255, Math.round((rgb[c] ?? 0) + jitter)))
    }
  }
  return { data, width, height, channels: 3 }
}

/** Many small random shapes in many colours: a background with edges everywhere. */
async function confetti(width: number, height: number): Promise<Pixels> {
  let seed = 11
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const shapes: string[] = []
  for (let i = 0; i < 500; i++) {
    const [x, y, r] = [next() * width, next() * height, 4 + next() * 22]
    const fill = `rgb(${Math.round(next() * 255)},${Math.round(next() * 255)},${Math.round(next() * 255)})`
    shapes.push(
      i % 2 === 0
        ? `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}"/>`
        : `<rect x="${x}" y="${y}" width="${r * 2}" height="${r}" fill="${fill}" transform="rotate(${next() * 90} ${x} ${y})"/>`,
    )
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#8a9a7a"/>${shapes.join('')}</svg>`
  return await raw(sharp(Buffer.from(svg)), 3)
}

/** An SVG shape (white on transparent) used as the alpha of a photo texture. */
async function textured(svgShape: string, texture: Pixels): Promise<Foreground> {
  const { width, height } = texture
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svgShape}</svg>`
  const shape = await raw(sharp(Buffer.from(svg)), 4)
  const data = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) data[4 * i + c] = texture.data[3 * i + c] as number
    data[4 * i + 3] = shape.data[4 * i + 3] as number
  }
  return { data, width, height, channels: 4 }
}

/** The horse silhouette (black on white, antialiased) as a brown, textured horse. */
async function horse(width: number, height: number): Promise<Foreground> {
  const grey = await raw(
    sharp(`${SAMPLES}horse.png`)
      .flatten({ background: '#ffffff' })
      .resize(Math.round(width * 0.8), Math.round(height * 0.8), { fit: 'inside' })
      .removeAlpha()
      .greyscale(),
    3,
  )
  const fur = await photo('chelsea.png', grey.width, grey.height)
  const data = Buffer.alloc(width * height * 4)
  const dx = Math.round((width - grey.width) / 2)
  const dy = Math.round((height - grey.height) / 2)
  for (let y = 0; y < grey.height; y++) {
    for (let x = 0; x < grey.width; x++) {
      const from = y * grey.width + x
      const to = (y + dy) * width + x + dx
      const tone = (fur.data[3 * from] as number) / 255
      data[4 * to] = Math.round(90 + 60 * tone)
      data[4 * to + 1] = Math.round(55 + 35 * tone)
      data[4 * to + 2] = Math.round(30 + 20 * tone)
      data[4 * to + 3] = 255 - (grey.data[grey.channels * from] as number)
    }
  }
  return { data, width, height, channels: 4 }
}

/** A mug (a handle with a hole in it) textured with the coffee photo. */
async function mug(width: number, height: number, scale = 1): Promise<Foreground> {
  const cx = width / 2
  const cy = height / 2
  const w = width * 0.34 * scale
  const h = height * 0.62 * scale
  const shape = `<rect x="${cx - w / 2 - w * 0.12}" y="${cy - h / 2}" width="${w}" height="${h}" rx="${w * 0.12}" fill="#fff"/>
    <ellipse cx="${cx + w * 0.38}" cy="${cy}" rx="${w * 0.26}" ry="${h * 0.24}" fill="none" stroke="#fff" stroke-width="${w * 0.09}"/>`
  return await textured(shape, await photo('coffee.png', width, height))
}

/** The cat photo as a round sticker (antialiased edge). */
async function sticker(width: number, height: number): Promise<Foreground> {
  const shape = `<ellipse cx="${width / 2}" cy="${height / 2}" rx="${width * 0.3}" ry="${height * 0.38}" fill="#fff"/>`
  return await textured(shape, await photo('chelsea.png', width, height))
}

/** A star and bold text with thin strokes, in red and dark blue. */
async function shapesAndText(width: number, height: number): Promise<Foreground> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <polygon points="${star(width * 0.3, height * 0.45, height * 0.3, height * 0.13)}" fill="#d22b2b"/>
    <text x="${width * 0.5}" y="${height * 0.55}" font-family="DejaVu Sans" font-weight="bold" font-size="${height * 0.16}" fill="#1b2a6b">SALE</text>
    <text x="${width * 0.5}" y="${height * 0.75}" font-family="DejaVu Serif" font-size="${height * 0.12}" fill="#1b2a6b">-50 %</text>
  </svg>`
  return await raw(sharp(Buffer.from(svg)), 4)
}

/** A face with long, thin, wavy strands of hair fanning out: soft, hair-like alpha. */
async function hair(width: number, height: number): Promise<Foreground> {
  const cx = width / 2
  const cy = height * 0.52
  let seed = 5
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const strands: string[] = []
  for (let i = 0; i < 260; i++) {
    const angle = Math.PI * (1.05 + 0.9 * next())
    const r0 = height * 0.2
    const r1 = height * (0.3 + 0.14 * next())
    const x0 = cx + Math.cos(angle) * r0
    const y0 = cy + Math.sin(angle) * r0 * 1.2
    const x1 = cx + Math.cos(angle) * r1
    const y1 = cy + Math.sin(angle) * r1 * 1.2
    const bend = (next() - 0.5) * 30
    strands.push(
      `<path d="M${x0},${y0} Q${(x0 + x1) / 2 + bend},${(y0 + y1) / 2 - bend} ${x1},${y1}" stroke="#3b2414" stroke-opacity="${0.5 + 0.5 * next()}" stroke-width="${0.8 + next() * 1.4}" fill="none"/>`,
    )
  }
  const face = await photo('astronaut.png', width, height)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <ellipse cx="${cx}" cy="${cy}" rx="${height * 0.2}" ry="${height * 0.26}" fill="#fff"/>
    <rect x="${cx - height * 0.08}" y="${cy + height * 0.2}" width="${height * 0.16}" height="${height * 0.3}" fill="#fff"/></svg>`
  const head = await textured(svg.replace(/^<svg[^>]*>|<\/svg>$/g, ''), face)
  const strandLayer = await raw(
    sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${strands.join('')}</svg>`,
      ),
    ),
    4,
  )
  return over(strandLayer, head)
}

/** A person's silhouette (textured with the astronaut's suit) holding a box out in one hand. */
async function personHolding(width: number, height: number): Promise<Foreground> {
  const u = height / 100
  const body = `<circle cx="${width / 2}" cy="${18 * u}" r="${11 * u}" fill="#fff"/>
    <rect x="${width / 2 - 4 * u}" y="${27 * u}" width="${8 * u}" height="${6 * u}" fill="#fff"/>
    <path d="M${width / 2 - 20 * u},${100 * u} L${width / 2 - 18 * u},${38 * u} Q${width / 2},${30 * u} ${width / 2 + 18 * u},${38 * u} L${width / 2 + 20 * u},${100 * u} Z" fill="#fff"/>
    <path d="M${width / 2 + 16 * u},${40 * u} L${width / 2 + 40 * u},${55 * u} L${width / 2 + 37 * u},${61 * u} L${width / 2 + 14 * u},${50 * u} Z" fill="#fff"/>`
  const person = await textured(body, await photo('astronaut.png', width, height))
  const box = `<rect x="${width / 2 + 30 * u}" y="${42 * u}" width="${26 * u}" height="${22 * u}" fill="#fff"/>`
  const held = await textured(box, await photo('coffee.png', width, height))
  return over(held, person)
}

/** A product (a tall rounded box) filling most of the frame. */
async function product(width: number, height: number): Promise<Foreground> {
  const shape = `<rect x="${width * 0.06}" y="${height * 0.04}" width="${width * 0.88}" height="${height * 0.93}" rx="${width * 0.08}" fill="#fff"/>`
  return await textured(shape, await photo('coffee.png', width, height))
}

/** A foreground over a background, both the same size: RGB. */
export function composite(foreground: Foreground, background: Pixels): Pixels {
  const { width, height } = foreground
  const data = Buffer.alloc(width * height * 3)
  for (let i = 0; i < width * height; i++) {
    const a = (foreground.data[4 * i + 3] as number) / 255
    for (let c = 0; c < 3; c++) {
      const f = foreground.data[4 * i + c] as number
      const b = background.data[background.channels * i + c] as number
      data[3 * i + c] = Math.round(f * a + b * (1 - a))
    }
  }
  return { data, width, height, channels: 3 }
}

/** `top` over `bottom`, both RGBA of one size: the result is RGBA. */
export function over(top: Foreground, bottom: Foreground): Foreground {
  const { width, height } = top
  const data = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    const at = (top.data[4 * i + 3] as number) / 255
    const ab = (bottom.data[4 * i + 3] as number) / 255
    const a = at + ab * (1 - at)
    for (let c = 0; c < 3; c++) {
      const value =
        a === 0
          ? 0
          : ((top.data[4 * i + c] as number) * at +
              (bottom.data[4 * i + c] as number) * ab * (1 - at)) /
            a
      data[4 * i + c] = Math.round(value)
    }
    data[4 * i + 3] = Math.round(a * 255)
  }
  return { data, width, height, channels: 4 }
}

/** The alpha channel of an RGBA image. */
export function alphaOf(image: Pixels): Uint8Array {
  const out = new Uint8Array(image.width * image.height)
  for (let i = 0; i < out.length; i++) out[i] = image.data[image.channels * i + 3] as number
  return out
}

/** The mean colour of the opaque part of a foreground, lightened by `gain`: a background of
 * the subject's own hue, as on a product shot against a matching backdrop. */
function similarColour(foreground: Foreground, gain = 1.2): number[] {
  const sum = [0, 0, 0]
  let n = 0
  for (let i = 0; i < foreground.width * foreground.height; i++) {
    if ((foreground.data[4 * i + 3] as number) < 200) continue
    for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (foreground.data[4 * i + c] as number)
    n += 1
  }
  return sum.map((s) => Math.min(255, (s / Math.max(1, n)) * gain))
}

function star(cx: number, cy: number, outer: number, inner: number): string {
  const points: string[] = []
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner
    const angle = -Math.PI / 2 + (i * Math.PI) / 5
    points.push(`${cx + r * Math.cos(angle)},${cy + r * Math.sin(angle)}`)
  }
  return points.join(' ')
}

/** Every composite of the benchmark, 640×480 (the model sees 1024² whatever the size). */
export async function scenes(width = 640, height = 480): Promise<Scene[]> {
  const plain = flat(width, height, [238, 238, 236], 2)
  const busyPhoto = await photo('hubble_deep_field.jpg', width, height)
  const busyShapes = await confetti(width, height)
  const made: Scene[] = []
  const add = (name: string, group: Scene['group'], fg: Foreground, bg: Pixels) =>
    made.push({ name, group, image: composite(fg, bg), foreground: fg, alpha: alphaOf(fg) })
  const horseFg = await horse(width, height)
  const mugFg = await mug(width, height)
  const stickerFg = await sticker(width, height)
  const textFg = await shapesAndText(width, height)
  const hairFg = await hair(width, height)
  const personFg = await personHolding(width, height)
  const productFg = await product(width, height)
  add('horse / plain', 'plain', horseFg, plain)
  add('mug / plain', 'plain', mugFg, plain)
  add('cat sticker / plain', 'plain', stickerFg, plain)
  add('shapes+text / plain', 'plain', textFg, plain)
  add('hair / plain', 'hair', hairFg, flat(width, height, [120, 190, 235], 2))
  add('horse / busy photo', 'busy', horseFg, busyPhoto)
  add('mug / busy shapes', 'busy', mugFg, busyShapes)
  add('cat sticker / busy photo', 'busy', stickerFg, busyPhoto)
  add('hair / busy shapes', 'hair', hairFg, busyShapes)
  add('mug / similar colour', 'hard', mugFg, flat(width, height, similarColour(mugFg), 6))
  add('horse / similar colour', 'hard', horseFg, flat(width, height, similarColour(horseFg), 6))
  add('product fills frame / plain', 'hard', productFg, plain)
  add('product fills frame / similar', 'hard', productFg, flat(width, height, [200, 170, 150], 6))
  add('person holding box / plain', 'hard', personFg, plain)
  add('person holding box / busy', 'hard', personFg, busyPhoto)
  return made
}

/** Foregrounds that arrive with transparency already (a PNG cut out before). */
export async function transparentInputs(width = 640, height = 480): Promise<Foreground[]> {
  const mugFg = await mug(width, height, 0.9)
  // A glass-like subject: half-transparent everywhere.
  const glass = { ...mugFg, data: Buffer.from(mugFg.data) }
  for (let i = 0; i < width * height; i++) {
    glass.data[4 * i + 3] = Math.round((glass.data[4 * i + 3] as number) * 0.5)
  }
  return [mugFg, glass, await shapesAndText(width, height)]
}

/** A large composite for timing (`side`² pixels). */
export async function largeScene(side: number): Promise<Pixels> {
  const fg = await mug(side, side)
  return composite(fg, await photo('hubble_deep_field.jpg', side, side))
}
