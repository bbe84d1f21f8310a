// HEIC decoding (libheif in @tessera/media's worker thread) of a 12-megapixel photo-sized image,
// and the whole engine job (decode, resize to 800 px, JPEG). The peer in the same run is sharp
// decoding the same picture as a JPEG (what a browser-ready original costs).
// Usage: node bench/heic.bench.ts [runs]
import { createEngine } from '@tessera/engine'
import { createHeicDecoder, createTestHeic } from '@tessera/media'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { printTable } from './table.ts'

const runs = Number(process.argv[2] ?? 7)
const width = 4032
const height = 3024
// A smooth gradient with some texture, as a camera's picture would have.
const data = new Uint8Array(width * height * 3)
for (let y = 0; y < height; y++) {
  for (let x = 0; x < width; x++) {
    const at = (y * width + x) * 3
    data[at] = (x * 255) / width
    data[at + 1] = (y * 255) / height
    data[at + 2] = ((x ^ y) & 0x3f) + 96
  }
}
const heic = await createTestHeic({ data, width, height })
const jpeg = await sharp(data, { raw: { width, height, channels: 3 } })
  .jpeg()
  .toBuffer()

async function time(work: () => Promise<unknown>): Promise<number[]> {
  await work()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)
}
const median = (times: number[]) => times[Math.floor(times.length / 2)] ?? Number.NaN

const decoder = createHeicDecoder({ maxPixels: 50_000_000, timeoutMs: 120_000 })
const engine = createEngine({ concurrency: 1, timeoutMs: 120_000 })
const resize = parsePattern('t.resize(w:800)~t.toFormat(f:jpeg)').value
const rows: [string, number[]][] = [
  ['libheif decodes the HEIC (worker)', await time(() => decoder.decode(heic))],
  [
    'engine: HEIC → 800 px JPEG',
    await time(() => engine.transform({ input: heic, operations: resize })),
  ],
  ['peer: sharp decodes the same picture as JPEG', await time(() => sharp(jpeg).raw().toBuffer())],
  [
    'engine: JPEG → 800 px JPEG',
    await time(() => engine.transform({ input: jpeg, operations: resize })),
  ],
]
const peer = median(rows[2]?.[1] ?? [])
console.log(`HEIC ${width}×${height} (${heic.length} bytes), ${runs} warm runs each`)
printTable(
  ['what', 'median ms', '× peer'],
  rows.map(([name, times]) => [name, median(times).toFixed(0), (median(times) / peer).toFixed(2)]),
  [false, true, true],
)
await decoder.close()
await engine.close()
