// The AI part of a playground chain (issue 24 item 3): the items up to and including the last
// one that runs an AI model. The server keeps that prefix's image as its own derived image,
// charged once, and renders the steps after it from that image for free; so the playground runs
// a prefix it has not run yet only when asked (the Run button), saying first what it costs, and
// after that every edit of the later steps is fetched at once.
import { CATALOGUE, type Catalogue, parseTransformations } from '@tessera/url'
import { type ChainItem, deliveryUrl, type ImageSource } from './playground-state.ts'

/** Credits one AI operation costs (the server's `CREDITS_PER_AI_OPERATION`). */
export const CREDITS_PER_AI_OPERATION = 1

/** The AI prefix of a chain: its URL (what is run and charged), its AI steps and their cost. */
export interface AiRun {
  /** The delivery URL of the chain up to and including its last AI step. */
  url: string
  /** The display names of the AI steps it runs. */
  steps: string[]
  credits: number
}

/** How many AI (slow) operations an item runs: an operation's one, or a preset's. */
export function aiOperationsOf(item: ChainItem, catalogue: Catalogue = CATALOGUE): number {
  if (!item.isPreset) return catalogue.getOperation(item.plugin, item.method)?.slow === true ? 1 : 0
  let operations: ReturnType<typeof parseTransformations>
  try {
    operations = parseTransformations(item.transformation ?? '')
  } catch {
    return 0
  }
  return operations.filter(
    (operation) => catalogue.getOperation(operation.plugin, operation.name)?.slow === true,
  ).length
}

/** The AI prefix of `items` on `source`, or null when nothing in it runs an AI model. */
export function aiRunOf(
  source: ImageSource | null,
  items: readonly ChainItem[],
  catalogue: Catalogue = CATALOGUE,
): AiRun | null {
  if (source === null) return null
  const counts = items.map((item) => aiOperationsOf(item, catalogue))
  const last = counts.findLastIndex((count) => count > 0)
  if (last === -1) return null
  const prefix = items.slice(0, last + 1)
  const operations = counts.slice(0, last + 1).reduce((sum, count) => sum + count, 0)
  return {
    url: deliveryUrl(source, prefix),
    steps: prefix.filter((_, index) => (counts[index] ?? 0) > 0).map((item) => item.displayName),
    credits: operations * CREDITS_PER_AI_OPERATION,
  }
}

/** The most AI prefixes remembered as run in one tab (oldest forgotten first). */
export const MAX_REMEMBERED_RUNS = 50
const STORAGE_KEY = 'tessera.playground.ai-runs'

/** The AI prefixes this tab has run (session storage: a reload does not ask again). */
export function readRuns(storage: Pick<Storage, 'getItem'> | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]')
    return Array.isArray(parsed)
      ? parsed.filter((entry): entry is string => typeof entry === 'string')
      : []
  } catch {
    return []
  }
}

/** `runs` with `url` added last, bounded; written to `storage` when there is one. */
export function rememberRun(
  runs: readonly string[],
  url: string,
  storage: Pick<Storage, 'setItem'> | undefined,
): string[] {
  const next = [...runs.filter((entry) => entry !== url), url].slice(-MAX_REMEMBERED_RUNS)
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(next))
  } catch {
    // Storage full or refused: remembered for this page only.
  }
  return next
}
