// `npm test`: every Vitest project, with the typecheck, the lint and the layer rule (depcheck)
// running beside it instead of before it (decision 012). Arguments go to Vitest
// (`npm test -- --reporter=json`). The script fails when Vitest or any check fails; a check's
// output is printed when it fails, a line when it passes. With TEST_CHECKS_REPORT set, the
// checks' results are also written there as JSON (`.ci/run` counts a failed check as a failure).
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export interface CheckResult {
  name: string
  passed: boolean
  seconds: number
  output: string
}

/** The checks beside the tests: npm scripts of the root package.json, run one after another. */
export const CHECKS = ['typecheck', 'lint', 'depcheck'] as const

/** The script's exit code: Vitest's when it failed, else 1 when a check failed, else 0. */
export function exitCode(vitestCode: number, checks: readonly CheckResult[]): number {
  if (vitestCode !== 0) return vitestCode
  return checks.every((check) => check.passed) ? 0 : 1
}

/** One line per check, and the output of those that failed. */
export function checksSummary(checks: readonly CheckResult[]): string {
  return checks
    .map((check) =>
      check.passed
        ? `✓ npm run ${check.name} (${check.seconds.toFixed(0)} s)`
        : `✗ npm run ${check.name} failed (${check.seconds.toFixed(0)} s):\n${check.output.trimEnd()}`,
    )
    .join('\n')
}

function run(
  command: string,
  args: readonly string[],
  capture: boolean,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
    let output = ''
    child.stdout?.on('data', (chunk) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk) => {
      output += chunk
    })
    child.once('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }))
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }))
  })
}

/** Runs the checks one after another (one core for them, the rest for the tests). */
async function runChecks(): Promise<CheckResult[]> {
  const results: CheckResult[] = []
  for (const name of CHECKS) {
    const started = performance.now()
    const { code, output } = await run('npm', ['run', '--silent', name], true)
    results.push({
      name,
      passed: code === 0,
      seconds: (performance.now() - started) / 1000,
      output,
    })
  }
  return results
}

async function main(): Promise<void> {
  const checks = runChecks()
  const vitest = await run('vitest', ['run', ...process.argv.slice(2)], false)
  const results = await checks
  process.stdout.write(`\n${checksSummary(results)}\n`)
  const report = process.env.TEST_CHECKS_REPORT
  if (report !== undefined && report !== '') {
    writeFileSync(
      report,
      JSON.stringify(results.map(({ name, passed, seconds }) => ({ name, passed, seconds }))),
    )
  }
  process.exitCode = exitCode(vitest.code, results)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
