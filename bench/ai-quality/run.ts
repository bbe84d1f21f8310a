// The AI quality benchmark: every `*.quality.ts` beside this file, one after another, each in
// its own process (so one model's memory never weighs on the next). Each area makes its own
// ground truth (composites with known alpha, text at known places, marks on clean photos,
// downscaled photos), runs the operations and prints a table of figures against that truth.
// Run with `npm run bench:ai-quality` (from the repo root or bench/); `AI_QUALITY_ONLY=faces,text`
// runs chosen areas. Not part of `npm test`: the figures go in docs/benchmarks.md.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const only = (process.env.AI_QUALITY_ONLY ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '')
const areas = readdirSync(here)
  .filter((file) => file.endsWith('.quality.ts'))
  .map((file) => file.slice(0, -'.quality.ts'.length))
  .filter((area) => only.length === 0 || only.includes(area))
  .sort()

let failed = 0
for (const area of areas) {
  console.log(`\n## ${area}\n`)
  const run = spawnSync(process.execPath, [`${here}${area}.quality.ts`], { stdio: 'inherit' })
  if (run.status !== 0) {
    failed += 1
    console.log(`(${area} ended with status ${run.status ?? run.signal})`)
  }
}
if (areas.length === 0) console.log('No area matched AI_QUALITY_ONLY.')
process.exitCode = failed === 0 ? 0 : 1
