import { createRequire } from 'node:module'
import type { AiImage } from '../image.ts'

const require = createRequire(import.meta.url)

/** Inpainting methods of OpenCV: Telea (fast marching) and Navier–Stokes. */
export type InpaintMethod = 'telea' | 'ns'

interface Mat {
  data: Uint8Array
  delete(): void
}
interface OpenCv {
  Mat: new () => Mat
  matFromArray(rows: number, cols: number, type: number, data: ArrayLike<number>): Mat
  inpaint(src: Mat, mask: Mat, dst: Mat, radius: number, flags: number): void
  CV_8UC1: number
  CV_8UC3: number
  INPAINT_TELEA: number
  INPAINT_NS: number
  onRuntimeInitialized?: () => void
}

let loaded: Promise<{ cv: OpenCv }> | undefined

// The module is a thenable that resolves to itself: a promise (or async function) resolved
// with it never settles, so it only ever travels wrapped in an object.
function openCv(): Promise<{ cv: OpenCv }> {
  loaded ??= new Promise((resolve) => {
    const cv = require('@techstark/opencv-js') as OpenCv
    // The wasm module starts asynchronously.
    if (typeof cv.Mat === 'function') resolve({ cv })
    else cv.onRuntimeInitialized = () => resolve({ cv })
  })
  return loaded
}

/**
 * Fills the pixels where `mask` is non-zero from their surroundings (classical inpainting, not
 * a generative model): good for thin marks on smooth areas, a smear across texture.
 */
export async function inpaint(
  image: AiImage,
  mask: Uint8Array,
  method: InpaintMethod,
  radius: number,
): Promise<AiImage> {
  if (image.channels !== 3) throw new Error('inpainting takes RGB pixels')
  const { cv } = await openCv()
  const source = cv.matFromArray(image.height, image.width, cv.CV_8UC3, image.data)
  const holes = cv.matFromArray(image.height, image.width, cv.CV_8UC1, mask)
  const result = new cv.Mat()
  try {
    cv.inpaint(source, holes, result, radius, method === 'ns' ? cv.INPAINT_NS : cv.INPAINT_TELEA)
    return { ...image, data: new Uint8Array(result.data) }
  } finally {
    source.delete()
    holes.delete()
    result.delete()
  }
}
