// The cut-out's pixel math on generated ground truth (no model): a soft mask snapped to the
// image's real edge, a ghost mask recognised and made solid, edge colours freed of the old
// background.
import { describe, expect, it } from 'vitest'
import type { AiImage } from './image.ts'
import { cutoutMatte, foregroundColours, refineMask, semiShare, unghost } from './matte.ts'

const W = 96
const H = 64

/** A disc of radius 20 (antialiased over one pixel) centred in the frame: the true alpha. */
function disc(): Uint8Array {
  const alpha = new Uint8Array(W * H)
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const d = Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2)
      alpha[y * W + x] = Math.round(Math.max(0, Math.min(1, 20.5 - d)) * 255)
    }
  }
  return alpha
}

/** `fg` over `bg` (RGB triples) with `alpha`, as a camera would see it. */
function photo(alpha: Uint8Array, fg: number[], bg: number[]): AiImage {
  const data = Buffer.alloc(W * H * 3)
  for (let i = 0; i < W * H; i++) {
    const a = (alpha[i] as number) / 255
    for (let c = 0; c < 3; c++)
      data[3 * i + c] = Math.round((fg[c] as number) * a + (bg[c] as number) * (1 - a))
  }
  return { data, width: W, height: H, channels: 3 }
}

/** A box blur of radius r: what a model's low-resolution mask looks like at the image's size. */
function blurred(mask: Uint8Array, r: number): Uint8Array {
  const out = new Uint8Array(mask.length)
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let sum = 0
      let n = 0
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          const yy = y + dy
          const xx = x + dx
          if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue
          sum += mask[yy * W + xx] as number
          n++
        }
      }
      out[y * W + x] = Math.round(sum / n)
    }
  }
  return out
}

function binaryErrors(a: Uint8Array, b: Uint8Array): number {
  let wrong = 0
  for (let i = 0; i < a.length; i++)
    if ((a[i] as number) >= 128 !== (b[i] as number) >= 128) wrong++
  return wrong
}

function meanAbsError(a: Uint8Array, b: Uint8Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] as number) - (b[i] as number))
  return sum / a.length
}

describe('refineMask', () => {
  it('pulls a blurred, bloated mask back onto the edge the image shows', () => {
    const truth = disc()
    // Red and blue of about the same brightness: only the colours tell them apart.
    const image = photo(truth, [200, 40, 30], [30, 90, 200])
    // What a model gives at the image's size: the subject 2 px too wide and blurred.
    const soft = blurred(
      blurred(truth, 2).map((v) => (v > 0 ? 255 : 0)),
      3,
    )
    const refined = refineMask(image, soft)
    expect(binaryErrors(refined, truth)).toBeLessThan(binaryErrors(soft, truth) / 3)
    expect(meanAbsError(refined, truth)).toBeLessThan(meanAbsError(soft, truth))
  })

  it('leaves a mask alone away from its edges', () => {
    const truth = disc()
    const refined = refineMask(photo(truth, [200, 40, 30], [30, 90, 200]), truth)
    expect(refined[0]).toBe(0)
    expect(refined[(H / 2) * W + W / 2]).toBe(255)
  })
})

describe('ghost masks', () => {
  it('recognises a mostly semi-transparent mask and makes its subject solid', () => {
    const truth = disc()
    // What ISNet gave for a product filling the frame: the subject at 35–55 %, the rest 5 %.
    const ghost = new Uint8Array(truth.length)
    for (let i = 0; i < truth.length; i++)
      ghost[i] = (truth[i] as number) > 127 ? 90 + ((i * 7) % 50) : 12
    expect(semiShare(ghost)).toBeGreaterThan(0.9)
    const solid = unghost(ghost)
    expect(semiShare(solid)).toBe(0)
    expect(binaryErrors(solid, truth) / truth.length).toBeLessThan(0.01)
    const matte = cutoutMatte(photo(truth, [200, 40, 30], [210, 60, 50]), ghost)
    expect(matte.ghost).toBe(true)
    expect(matte.alpha[(H / 2) * W + W / 2]).toBe(255)
  })

  it('keeps a confident mask as it is', () => {
    const truth = disc()
    expect(cutoutMatte(photo(truth, [200, 40, 30], [30, 90, 200]), truth).ghost).toBe(false)
  })
})

describe('foregroundColours', () => {
  it('takes the old background out of semi-transparent edge pixels', () => {
    // Hair-like: a soft edge 12 px wide around a disc, dark brown strands over a sky blue.
    const alpha = new Uint8Array(W * H)
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const d = Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2)
        alpha[y * W + x] = Math.round(Math.max(0, Math.min(1, (26 - d) / 12)) * 255)
      }
    }
    const hair = [60, 35, 20]
    const sky = [120, 190, 235]
    const image = photo(alpha, hair, sky)
    const colours = foregroundColours(image, alpha)
    let before = 0
    let after = 0
    let counted = 0
    for (let i = 0; i < W * H; i++) {
      const a = alpha[i] as number
      if (a < 40 || a > 215) continue
      for (let c = 0; c < 3; c++) {
        before += Math.abs((image.data[3 * i + c] as number) - (hair[c] as number))
        after += Math.abs((colours[3 * i + c] as number) - (hair[c] as number))
      }
      counted += 3
    }
    expect(after / counted).toBeLessThan(before / counted / 3)
  })
})
