// A 1,000,000-input fuzz run of the URL language (issue 14), not part of `npm test`: the inputs
// and checks of packages/url/src/fuzz.test.ts (random text and mutated delivery URLs; only
// UrlError may be thrown; what was read builds back to a URL that reads the same), ten times as
// many. Run with `npm run bench:fuzz -w @tessera/bench`; FUZZ_INPUTS and FUZZ_SEED change the run.
import { availableParallelism, cpus, loadavg } from 'node:os'
import {
  checkFuzzInput,
  createRandom,
  FuzzFailure,
  fuzzInput,
} from '../packages/url/test/fuzz-inputs.ts'

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 1_000_000)
const SEED = Number(process.env.FUZZ_SEED ?? 20261123)
if (!Number.isInteger(INPUTS) || INPUTS < 1) throw new RangeError('FUZZ_INPUTS: a whole number ≥ 1')

console.log(
  `URL fuzz — ${new Date().toISOString()}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
)
console.log(`${INPUTS.toLocaleString('en-US')} inputs from seed ${SEED}`)
const random = createRandom(SEED)
let parsed = 0
let characters = 0
let failures = 0
const started = performance.now()
for (let i = 0; i < INPUTS; i++) {
  const input = fuzzInput(random, i)
  characters += input.length
  try {
    if (checkFuzzInput(input)) parsed++
  } catch (error) {
    if (!(error instanceof FuzzFailure)) throw error
    failures++
    if (failures <= 10) console.log(`FAILURE #${i}: ${error.message}`)
  }
  if ((i + 1) % 100_000 === 0) {
    const seconds = (performance.now() - started) / 1000
    console.log(`  ${(i + 1).toLocaleString('en-US')} inputs, ${seconds.toFixed(1)} s`)
  }
}
const seconds = (performance.now() - started) / 1000
console.log(
  `\n${INPUTS.toLocaleString('en-US')} inputs (${(characters / 1e6).toFixed(1)} M characters) in ${seconds.toFixed(1)} s ` +
    `(${Math.round(INPUTS / seconds).toLocaleString('en-US')} inputs/s, 8 checks each); ` +
    `${parsed.toLocaleString('en-US')} read as delivery URLs and round-tripped; ${failures} failures`,
)
if (failures > 0) process.exitCode = 1
