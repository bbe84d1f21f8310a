// One model call, run inside a piscina worker thread. Every model loads lazily, once per
// thread, from its npm package; a pool serves one model family, so a thread holds one model.
import { workerData } from 'node:worker_threads'
import type { AiImage } from './image.ts'
import { cutoutMatte } from './matte.ts'
import { type EsrganScale, type EsrganVariant, esrganUpscale } from './models/esrgan.ts'
import { detectFaces } from './models/faces.ts'
import { type InpaintMethod, inpaint } from './models/inpaint.ts'
import { type IsnetSize, isnetMask } from './models/isnet.ts'
import { classifyNsfw } from './models/nsfw.ts'
import { detectObjects } from './models/objects.ts'
import { readText } from './models/ocr.ts'
import { generateQr, type QrOptions, scanQr } from './models/qr.ts'

/** One call into a worker. */
export type Task =
  | { kind: 'isnet'; image: AiImage; size: IsnetSize }
  | { kind: 'matte'; image: AiImage; mask: Uint8Array }
  | { kind: 'esrgan'; image: AiImage; variant: EsrganVariant; scale: EsrganScale }
  | { kind: 'faces'; image: AiImage }
  | { kind: 'objects'; image: AiImage }
  | { kind: 'nsfw'; image: AiImage }
  | { kind: 'ocr'; image: AiImage }
  | { kind: 'inpaint'; image: AiImage; mask: Uint8Array; method: InpaintMethod; radius: number }
  | { kind: 'qr-scan'; image: AiImage }
  | { kind: 'qr-generate'; options: QrOptions }

const threads = (workerData as { threads?: number } | undefined)?.threads ?? 1

// Models come from the installed packages only: a library that tries the network (a CDN
// fallback when a path is wrong) fails loudly here instead of hanging or phoning out.
const localFetch = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input)
  if (!url.startsWith('file:') && !url.startsWith('data:')) {
    return Promise.reject(new Error(`AI models may not use the network (${url})`))
  }
  return localFetch(input, init)
}

/** Runs one task; the result is structured-cloned back to the caller. */
export default async function run(task: Task): Promise<unknown> {
  switch (task.kind) {
    case 'isnet':
      return await isnetMask(task.image, task.size, threads)
    case 'matte':
      return cutoutMatte(task.image, task.mask)
    case 'esrgan':
      return await esrganUpscale(task.image, task.variant, task.scale, threads)
    case 'faces':
      return await detectFaces(task.image, threads)
    case 'objects':
      return await detectObjects(task.image, threads)
    case 'nsfw':
      return await classifyNsfw(task.image, threads)
    case 'ocr':
      return await readText(task.image)
    case 'inpaint':
      return await inpaint(task.image, task.mask, task.method, task.radius)
    case 'qr-scan':
      return scanQr(task.image) ?? null
    case 'qr-generate':
      return await generateQr(task.options)
  }
}
