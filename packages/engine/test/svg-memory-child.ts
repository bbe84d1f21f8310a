// Run by svg-memory.test.ts in a child process of its own, so the RSS it reports is of these
// renders alone: an SVG at the element limit rendered at six sizes with the engine's defaults.
// Prints one JSON line: { before, after, peak } (MB) and the refusal of a 200,000-element SVG.
import { parsePattern } from '@tessera/url'
import { createEngine } from '../src/index.ts'

function svgOf(elements: number): Buffer {
  const parts: string[] = []
  for (let i = 0; i < elements; i++) {
    const colour = ((i * 7919) % 0xffffff).toString(16).padStart(6, '0')
    parts.push(
      `<rect x="${i % 1000}" y="${Math.floor(i / 1000)}" width="3" height="3" fill="#${colour}"/>`,
    )
  }
  // The root is one more element.
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">${parts.join('')}</svg>`,
  )
}

const rss = () => process.memoryUsage().rss / 1024 ** 2
const engine = createEngine()
// Just under SVG_MAX_ELEMENTS' default (20,000), written out so the figure is the same on code
// without that limit.
const atLimit = svgOf(19_999)
const tooMany = svgOf(200_000)
const before = rss()
let peak = before
for (const width of [100, 200, 300, 400, 500, 600]) {
  const result = await engine.transform({
    input: atLimit,
    operations: parsePattern(`t.resize(w:${width})~t.toFormat(f:png)`).value,
  })
  if (result.width !== width) throw new Error(`rendered ${result.width}, not ${width}`)
  peak = Math.max(peak, rss())
}
const after = rss()
let refused = ''
try {
  await engine.transform({
    input: tooMany,
    operations: parsePattern('t.resize(w:100)').value,
  })
} catch (error) {
  refused = (error as { code?: string }).code ?? String(error)
}
await engine.close()
console.log(JSON.stringify({ before, after, peak, refused, afterRefusal: rss() }))
