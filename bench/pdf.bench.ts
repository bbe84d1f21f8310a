// PDF page 1 at 150 dpi (issue 23 target: ≤ 0.5 s), warm: MuPDF drawing the page in its worker
// thread, and the whole engine job (draw, then encode PNG / resize to 800 px JPEG). The peer in
// the same run is sharp encoding the same pixels (a 1240×1755 PNG) — the encode alone, so the
// ratio says what drawing the page adds.
// Usage: node bench/pdf.bench.ts [runs]
import { createEngine } from '@tessera/engine'
import { createPdfRenderer, createTestPdf } from '@tessera/media'
import { parsePattern } from '@tessera/url'
import sharp from 'sharp'
import { printTable } from './table.ts'

const runs = Number(process.argv[2] ?? 15)
const words = 'the quick brown fox jumps over the lazy dog while tessera draws every page'.split(
  ' ',
)
const line = (n: number) =>
  Array.from({ length: 14 }, (_, i) => words[(n * 7 + i) % words.length]).join(' ')
// An A4 page of text over a tint, and a plain one.
const textPage = await createTestPdf([
  {
    width: 595,
    height: 842,
    colour: [250, 246, 235],
    text: Array.from({ length: 52 }, (_, n) => line(n)),
  },
])
const plainPage = await createTestPdf([{ width: 595, height: 842, colour: [200, 30, 40] }])

async function time(work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await work()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)
}

const median = (times: number[]) => times[Math.floor(times.length / 2)] ?? Number.NaN
const p90 = (times: number[]) => times[Math.floor(times.length * 0.9)] ?? Number.NaN

const renderer = createPdfRenderer()
const engine = createEngine({ concurrency: 1 })
const drawn = await renderer.render(textPage, { dpi: 150 })
const pixels = sharp(Buffer.from(drawn.pixels.data), {
  raw: { width: drawn.pixels.width, height: drawn.pixels.height, channels: 3 },
})
const resize = parsePattern('t.resize(w:800)~t.toFormat(f:jpeg)', { format: 'pdf' }).value

const rows: [string, number[]][] = [
  ['MuPDF draws page 1 (text), 150 dpi', await time(() => renderer.render(textPage))],
  ['MuPDF draws page 1 (plain), 150 dpi', await time(() => renderer.render(plainPage))],
  [
    'engine: page 1 (text) → PNG',
    await time(() => engine.transform({ input: textPage, operations: [] })),
  ],
  [
    'engine: page 1 (text) → 800 px JPEG',
    await time(() => engine.transform({ input: textPage, operations: resize })),
  ],
  ['peer: sharp encodes the same pixels as PNG', await time(() => pixels.clone().png().toBuffer())],
]
const peer = median(rows[4]?.[1] ?? [])
console.log(
  `PDF page 1 at 150 dpi (${drawn.pixels.width}×${drawn.pixels.height}), ${runs} warm runs each`,
)
printTable(
  ['what', 'median ms', 'p90 ms', '× peer'],
  rows.map(([name, times]) => [
    name,
    median(times).toFixed(0),
    p90(times).toFixed(0),
    (median(times) / peer).toFixed(2),
  ]),
  [false, true, true, true],
)
await renderer.close()
await engine.close()
