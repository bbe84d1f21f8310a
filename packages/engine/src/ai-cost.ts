// An AI step that cannot finish within AI_TIMEOUT_MS is refused before it is queued: its cost
// estimated from its actual input and model (@tessera/ai's cost models, issue 19 finding 4).
import { estimateAiMs, largestSquareWithin } from '@tessera/ai'
import type { StepInput } from './chain-geometry.ts'
import { EngineError, MESSAGES } from './errors.ts'

/**
 * @throws {EngineError} `too_many_pixels` when the step's estimate is over `timeoutMs`.
 */
export function checkAiCost(input: StepInput, timeoutMs: number): void {
  const key = input.operation.spec?.key ?? ''
  const ms = estimateAiMs(key, input.params, input.width, input.height)
  if (ms <= timeoutMs) return
  throw new EngineError(
    'too_many_pixels',
    MESSAGES.aiTooCostly(
      key,
      input.width,
      input.height,
      ms,
      timeoutMs,
      largestSquareWithin(key, input.params, timeoutMs),
    ),
  )
}
