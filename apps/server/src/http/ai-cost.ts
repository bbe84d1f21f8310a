// The AI cost check of a chain before anything is signed or queued (issue 19 finding 4): each AI
// step is judged on its actual input (the pixels after the steps before it) by size and by what
// it can do within AI_TIMEOUT_MS, so work that cannot finish is refused at once with a 4xx.
import type { Engine } from '@tessera/engine'
import type { ParsedOperation } from '@tessera/url'
import { engineErrorToHttp } from './engine-errors.ts'

/**
 * Refuses `operations` on an image of `width` × `height` when an AI step of them is too large
 * or cannot finish in time; images of unknown size pass (their job checks them again).
 *
 * @throws {HttpError} 422 `image_too_large`, 400 for a bad parameter.
 */
export function assertAiCanFinish(
  engine: Pick<Engine, 'checkAiInput'>,
  operations: readonly ParsedOperation[],
  size: { width: number | null; height: number | null },
  dpr = 1,
): void {
  if (size.width === null || size.height === null) return
  try {
    engine.checkAiInput(operations, size.width, size.height, dpr)
  } catch (error) {
    throw engineErrorToHttp(error)
  }
}
