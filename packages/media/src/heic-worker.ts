// The HEIC worker: libheif (WebAssembly, through heic-decode) decodes here, off the main thread;
// the image's size is read from its header and checked before any pixel is decoded.
import { createRequire } from 'node:module'
import { parentPort } from 'node:worker_threads'
import type { HeicRequest, HeicResponse } from './heic-protocol.ts'

interface HeifImage {
  width: number
  height: number
  decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }>
}
type DecodeAll = (input: { buffer: Uint8Array }) => Promise<HeifImage[] & { dispose(): void }>

const require = createRequire(import.meta.url)
const { all } = require('heic-decode') as { all: DecodeAll }

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown'
}

async function handle(request: HeicRequest): Promise<HeicResponse> {
  let images: Awaited<ReturnType<DecodeAll>>
  try {
    images = await all({ buffer: request.bytes })
  } catch (error) {
    return {
      ok: false,
      code: 'invalid_image',
      message: `The HEIC file cannot be read: ${messageOf(error)}`,
    }
  }
  try {
    const primary = images[0]
    if (primary === undefined || !(primary.width > 0 && primary.height > 0)) {
      return { ok: false, code: 'invalid_image', message: 'The HEIC file holds no image' }
    }
    const pixels = primary.width * primary.height
    if (pixels > request.maxPixels) {
      return {
        ok: false,
        code: 'too_many_pixels',
        message: `The image has ${pixels} pixels; the limit is ${request.maxPixels}`,
      }
    }
    if (!request.decode) return { ok: true, width: primary.width, height: primary.height }
    let decoded: Awaited<ReturnType<HeifImage['decode']>>
    try {
      decoded = await primary.decode()
    } catch (error) {
      return {
        ok: false,
        code: 'invalid_image',
        message: `The HEIC image cannot be decoded: ${messageOf(error)}`,
      }
    }
    const rgba = decoded.data
    let opaque = true
    for (let i = 3; i < rgba.length; i += 4) {
      if (rgba[i] !== 255) {
        opaque = false
        break
      }
    }
    // RGB when every pixel is opaque: smaller, and the output format may then be JPEG.
    let data: Uint8Array
    if (opaque) {
      data = new Uint8Array(decoded.width * decoded.height * 3)
      for (let source = 0, target = 0; source < rgba.length; source += 4, target += 3) {
        data[target] = rgba[source] ?? 0
        data[target + 1] = rgba[source + 1] ?? 0
        data[target + 2] = rgba[source + 2] ?? 0
      }
    } else {
      data = new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength)
    }
    return {
      ok: true,
      width: decoded.width,
      height: decoded.height,
      pixels: { data, width: decoded.width, height: decoded.height, channels: opaque ? 3 : 4 },
    }
  } finally {
    images.dispose()
  }
}

parentPort?.on('message', async (message: { id: number; request: HeicRequest }) => {
  const response = await handle(message.request).catch(
    (error: unknown): HeicResponse => ({
      ok: false,
      code: 'invalid_image',
      message: `The HEIC file cannot be read: ${messageOf(error)}`,
    }),
  )
  const transfer =
    response.ok && response.pixels ? [response.pixels.data.buffer as ArrayBuffer] : []
  parentPort?.postMessage({ id: message.id, response }, transfer)
})
