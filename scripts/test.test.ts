// `npm test` runs the checks beside Vitest: it still fails when any of them fails, and says which.
import { describe, expect, it } from 'vitest'
import { type CheckResult, checksSummary, exitCode } from './test.ts'

const passed = (name: string): CheckResult => ({ name, passed: true, seconds: 3, output: 'ok' })
const failed = (name: string): CheckResult => ({
  name,
  passed: false,
  seconds: 5,
  output: 'src/a.ts(1,1): error TS2322\n',
})

describe('npm test with the checks beside the tests', () => {
  it('passes when the tests and every check pass', () => {
    expect(exitCode(0, [passed('typecheck'), passed('lint'), passed('depcheck')])).toBe(0)
  })

  it('fails when a check fails though every test passed', () => {
    expect(exitCode(0, [passed('typecheck'), failed('lint'), passed('depcheck')])).toBe(1)
  })

  it("keeps Vitest's exit code when tests failed", () => {
    expect(exitCode(2, [passed('typecheck'), passed('lint'), passed('depcheck')])).toBe(2)
    expect(exitCode(1, [failed('typecheck')])).toBe(1)
  })

  it('prints a line for each passing check and the output of a failing one', () => {
    const summary = checksSummary([passed('typecheck'), failed('lint')])
    expect(summary).toContain('✓ npm run typecheck (3 s)')
    expect(summary).toContain('✗ npm run lint failed (5 s):\nsrc/a.ts(1,1): error TS2322')
    expect(summary).not.toContain('ok')
  })
})
