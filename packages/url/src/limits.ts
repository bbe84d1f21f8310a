import { isName } from './chars.ts'
import { MAX_TRANSFORMATIONS, SLUG_LENGTH } from './constants.ts'
import { MESSAGES } from './errors.ts'
import { splitOperations } from './pattern.ts'

/** One entry of a transformation list, as the playground keeps it (SPEC §3). */
export interface TransformationListItem {
  isPreset?: boolean
  /** For a preset, its pattern (operations joined by `~`). */
  transformation?: string
}

/** Returns true for an asset short code or zone slug: exactly 6 letters, digits, `_` or `-`. */
export function isAssetSlug(value: unknown): value is string {
  return typeof value === 'string' && value.length === SLUG_LENGTH && isName(value)
}

/** How many operations an item counts for: a preset counts each of its `~`-separated operations. */
export function countItemOperations(item: TransformationListItem): number {
  if (
    item.isPreset === true &&
    typeof item.transformation === 'string' &&
    item.transformation !== ''
  ) {
    return splitOperations(item.transformation).length
  }
  return 1
}

/** How many operations a list counts for, presets expanded. */
export function countOperations(items: readonly TransformationListItem[]): number {
  let total = 0
  for (const item of items) total += countItemOperations(item)
  return total
}

/** Returns true while another single operation may be added (below 15). */
export function canAddTransformation(items: readonly TransformationListItem[]): boolean {
  return countOperations(items) < MAX_TRANSFORMATIONS
}

/**
 * Checks whether `item` may be added to `items` under the 15-operation cap.
 *
 * @returns undefined when it may, else 'Cannot add more than 15 transformations.' or, for a
 *   preset, 'Cannot add preset, causing more than 15 transformations.'
 */
export function checkTransformationLimit(
  items: readonly TransformationListItem[],
  item: TransformationListItem,
): string | undefined {
  if (countOperations(items) + countItemOperations(item) <= MAX_TRANSFORMATIONS) return undefined
  return item.isPreset === true ? MESSAGES.maxTransformationsPreset : MESSAGES.maxTransformations
}
