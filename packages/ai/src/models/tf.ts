import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageDir } from './paths.ts'

type Tf = typeof import('@tensorflow/tfjs')

const require = createRequire(import.meta.url)

let ready: Promise<Tf> | undefined

interface WeightGroup {
  paths: string[]
  weights: unknown[]
}

/** Reads a tfjs model (model.json and its weight shards) from disk into memory artefacts. */
export async function readArtifacts(modelFile: string) {
  const json = JSON.parse(await readFile(modelFile, 'utf8')) as {
    modelTopology: unknown
    weightsManifest: WeightGroup[]
  } & Record<string, unknown>
  const dir = path.dirname(modelFile)
  const shards = await Promise.all(
    json.weightsManifest.flatMap((group) =>
      group.paths.map((file) => readFile(path.join(dir, file))),
    ),
  )
  const weights = Buffer.concat(shards)
  const { weightsManifest, ...rest } = json
  // Everything else in model.json (format, signature, metadata) passes through: graph models
  // read their input shapes from the signature.
  return {
    ...rest,
    modelTopology: json.modelTopology as object,
    weightSpecs: weightsManifest.flatMap((group) => group.weights) as never,
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
  }
}

/**
 * tfjs on its WebAssembly backend, set up once per worker. The wasm binaries load from the
 * installed `@tensorflow/tfjs-backend-wasm` (never a CDN), and `file://` model URLs (which pure
 * tfjs cannot load in Node) are read from disk.
 */
export function tensorflow(threads: number): Promise<Tf> {
  ready ??= (async () => {
    // The CommonJS builds, as face-api, Human and nsfwjs load them: an ES import would make a
    // second tfjs with its own backend and loaders.
    const tf = require('@tensorflow/tfjs') as Tf
    const wasm =
      require('@tensorflow/tfjs-backend-wasm') as typeof import('@tensorflow/tfjs-backend-wasm')
    wasm.setWasmPaths(`${path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}/`)
    wasm.setThreadsCount(threads)
    tf.io.registerLoadRouter((url) => {
      const text = Array.isArray(url) ? url[0] : url
      if (typeof text !== 'string' || !text.startsWith('file://')) return null as never
      return { load: () => readArtifacts(fileURLToPath(text)) }
    })
    if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not start')
    await tf.ready()
    tf.enableProdMode()
    return tf
  })()
  return ready
}
