import { AI_OPERATIONS, isAiOperation, UNAVAILABLE } from '@tessera/ai'
import { createTestPdf } from '@tessera/media'
import { CATALOGUE, parsePattern } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { createEngine, OPERATIONS } from './index.ts'
import { quadrants } from './test-images.ts'

const engine = createEngine()
const QUADRANTS = await quadrants()
// Operations for one source format (pdf.page) run on a file of it.
const PDF = await createTestPdf([{ width: 100, height: 80, colour: [200, 10, 10] }])
const operations = CATALOGUE.plugins.flatMap((plugin) => plugin.operations)
const runnable = operations.filter((operation) => operation.runnable)

describe('the catalogue and the engine', () => {
  it('implement the same operations', () => {
    expect(runnable.map((operation) => operation.key).sort()).toEqual(
      Object.keys(OPERATIONS).sort(),
    )
  })

  it('run every basic operation, the intelligent crop and the AI operations with a model here', () => {
    const expected = operations
      .filter(
        (operation) =>
          operation.plugin === 't' ||
          operation.plugin === 'pdf' ||
          operation.plugin === 'vid' ||
          operation.key === 'ic.crop' ||
          (AI_OPERATIONS as readonly string[]).includes(operation.key),
      )
      .map((operation) => operation.key)
    expect(runnable.map((operation) => operation.key)).toEqual(expected)
  })

  it('give a reason for every operation that is not runnable', () => {
    const missing = operations.filter((operation) => !operation.runnable)
    expect(missing.map((operation) => operation.key).sort()).toEqual(
      Object.keys(UNAVAILABLE).sort(),
    )
  })

  it('say in the catalogue why, with the AI service’s own reason', () => {
    for (const operation of operations) {
      expect(operation.unavailableReason, operation.key).toBe(UNAVAILABLE[operation.key])
    }
  })

  // The AI operations run in ai.test.ts, with their models loaded once.
  const basic = runnable.filter((operation) => !isAiOperation(operation.key))
  it.each(basic.map((operation) => [operation.key, operation] as const))(
    'runs %s with its default parameters',
    async (key, operation) => {
      const { value, issues } = parsePattern(`${key}()`)
      expect(issues).toEqual([])
      expect(value[0]?.spec).toBe(operation)
      const input = operation.formats?.includes('pdf') ? PDF : QUADRANTS
      const result = await engine.transform({ input, operations: value })
      expect(result.width).toBeGreaterThan(0)
      expect(result.height).toBeGreaterThan(0)
      expect(result.data.length).toBeGreaterThan(0)
    },
  )
})
