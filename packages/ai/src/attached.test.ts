// What the subject holds, on generated ground truth (no model): ISNet's mask of a person holding
// a box out leaves the box and the arm out (bench/ai-quality); on a plain backdrop they come back,
// a shadow on the floor stays background, and a busy background is left to the model.
import { describe, expect, it } from 'vitest'
import { keepAttached, plainBackdrop } from './attached.ts'
import type { AiImage } from './image.ts'
import { cutoutMatte } from './matte.ts'

const W = 160
const H = 120
const BACKDROP = [238, 238, 236]

type Rect = [left: number, top: number, width: number, height: number]
const BODY: Rect = [50, 20, 40, 100]
const ARM: Rect = [90, 50, 24, 8] // grey cloth, the backdrop's hue darker: shadow-like
const BOX: Rect = [114, 40, 30, 26]
const SHADOW: Rect = [20, 98, 28, 8] // on the floor, beside the body

const inside = ([left, top, width, height]: Rect, x: number, y: number) =>
  x >= left && x < left + width && y >= top && y < top + height

/** The scene over a backdrop (plain, or noise when `busy`), RGB. */
function scene(busy: boolean): AiImage {
  const data = Buffer.alloc(W * H * 3)
  let seed = 3
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      const noise = busy ? (seed % 200) - 100 : (seed % 5) - 2
      let colour = BACKDROP.map((v) => v + noise)
      if (inside(SHADOW, x, y)) colour = BACKDROP.map((v) => Math.round(v * 0.7))
      if (inside(BODY, x, y)) colour = [200, 90, 40]
      if (inside(ARM, x, y)) colour = [150, 150, 148]
      if (inside(BOX, x, y)) colour = [170, 110, 60]
      data.set(
        colour.map((v) => Math.max(0, Math.min(255, v))),
        3 * (y * W + x),
      )
    }
  }
  return { data, width: W, height: H, channels: 3 }
}

/** What the model gives: the body alone, with a soft edge of two pixels. */
function bodyMask(): Uint8Array {
  const mask = new Uint8Array(W * H)
  const [left, top, width, height] = BODY
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const dx = Math.max(left - x, x - (left + width - 1), 0)
      const dy = Math.max(top - y, y - (top + height - 1), 0)
      const d = Math.max(dx, dy)
      mask[y * W + x] = d === 0 ? 255 : d === 1 ? 160 : d === 2 ? 60 : 0
    }
  }
  return mask
}

function share(mask: Uint8Array, rect: Rect, test: (value: number) => boolean): number {
  let hit = 0
  let all = 0
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!inside(rect, x, y)) continue
      all++
      if (test(mask[y * W + x] as number)) hit++
    }
  }
  return hit / all
}

describe('keepAttached', () => {
  it('adds the held box and the arm holding it on a plain backdrop; the shadow stays out', () => {
    const image = scene(false)
    expect(plainBackdrop(image, bodyMask())).toEqual(
      expect.arrayContaining([expect.closeTo(238, 0)]),
    )
    const kept = keepAttached(image, bodyMask())
    expect(share(kept, BOX, (v) => v === 255)).toBe(1)
    // The arm's first two columns are the model's own soft edge, refined later.
    expect(share(kept, [92, 50, 22, 8], (v) => v === 255)).toBe(1)
    expect(share(kept, SHADOW, (v) => v === 0)).toBe(1)
    expect(share(kept, BODY, (v) => v === 255)).toBe(1)
    // Through the whole matte (edges refined): the box is opaque in the cut-out.
    const { alpha } = cutoutMatte(image, bodyMask())
    expect(share(alpha, [118, 44, 22, 18], (v) => v >= 250)).toBe(1)
    expect(alpha[5 * W + 5]).toBe(0)
  })

  it('leaves the mask alone on a busy background (unlike it says nothing there)', () => {
    const image = scene(true)
    expect(plainBackdrop(image, bodyMask())).toBeUndefined()
    expect(keepAttached(image, bodyMask())).toEqual(bodyMask())
  })

  it('adds nothing that does not touch the subject', () => {
    const image = scene(false)
    // The body moved away from the arm: the box and arm are now a separate object.
    const mask = bodyMask()
    for (let y = 0; y < H; y++) for (let x = 76; x < 96; x++) mask[y * W + x] = 0
    const moved = Buffer.from(image.data)
    for (let y = 0; y < H; y++) {
      for (let x = 76; x < 90; x++) moved.set(BACKDROP, 3 * (y * W + x))
    }
    const kept = keepAttached({ ...image, data: moved }, mask)
    expect(share(kept, BOX, (v) => v === 0)).toBe(1)
  })
})
