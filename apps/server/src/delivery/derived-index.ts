// The index rows of derived images, written a few at a time: each row goes in with those made
// in the same short window, as one INSERT. An INSERT costs the embedded database about the same
// for one row as for several (~0.55 ms of the main thread for one, ~0.16 ms per row for four), and
// on a cache miss that was the largest part of the server's own work (issue 14, uncached
// delivery against ipx). Nobody waits for these rows to answer: the image goes out first
// (derive.ts) and this process answers the same URL from its in-flight entry until its row is
// in; another process asking meanwhile renders it again, and the first row in wins, as before.
import type { DerivedInput, Repository } from '../db/index.ts'

/**
 * How long a row waits for others before its INSERT is sent. An INSERT costs the embedded
 * database ~0.9 ms of the main thread plus ~0.1 ms per row (measured for issue 25: 1 row ~1.0 ms,
 * 4 rows ~1.5 ms, 16 rows ~2.6 ms), so at a hundred misses a second a 200 ms window halves the
 * cost per row of the 50 ms it replaced. Nothing waits on it but the in-flight entry, which
 * answers the key meanwhile.
 */
export const INDEX_BATCH_WINDOW_MS = 200
/** Rows in one INSERT at most; a full batch is sent at once. */
export const INDEX_BATCH_MAX_ROWS = 64

export interface DerivedIndexWriter {
  /** Settles once the row is in (or has failed: then with that row's own error). */
  record(input: DerivedInput): Promise<void>
}

interface Pending {
  input: DerivedInput
  resolve: () => void
  reject: (error: unknown) => void
}

export function createDerivedIndexWriter(
  repo: Pick<Repository, 'recordDerived' | 'recordDerivedMany'>,
  options: { windowMs?: number; maxRows?: number } = {},
): DerivedIndexWriter {
  const windowMs = options.windowMs ?? INDEX_BATCH_WINDOW_MS
  const maxRows = options.maxRows ?? INDEX_BATCH_MAX_ROWS
  let batch: Pending[] = []
  let timer: NodeJS.Timeout | undefined

  async function write(rows: Pending[]): Promise<void> {
    try {
      await repo.recordDerivedMany(rows.map((row) => row.input))
      for (const row of rows) row.resolve()
      return
    } catch (error) {
      if (rows.length === 1) {
        rows[0]?.reject(error)
        return
      }
    }
    // All or none failed: one bad row (its file deleted meanwhile, say) must not cost the
    // others their rows, so each is tried alone and settles with its own outcome.
    for (const row of rows) {
      try {
        await repo.recordDerived(row.input)
        row.resolve()
      } catch (error) {
        row.reject(error)
      }
    }
  }

  function send(): void {
    clearTimeout(timer)
    timer = undefined
    const rows = batch
    batch = []
    void write(rows)
  }

  return {
    record(input) {
      return new Promise<void>((resolve, reject) => {
        batch.push({ input, resolve, reject })
        if (batch.length >= maxRows) send()
        else timer ??= setTimeout(send, windowMs)
      })
    },
  }
}
