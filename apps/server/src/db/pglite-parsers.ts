// Drizzle passes PGlite the same few parsers with every query (timestamps, dates and intervals
// kept as the database wrote them). PGlite merges a query's own parsers into a copy of its whole
// table (`{ ...this.parsers, ...options.parsers }`): ~300 types whose numeric keys reach ~12,800,
// so each copy is a 127 KB array, made and dropped per statement. On a delivery miss that was
// most of the main thread's garbage, and it brought a full collection every ~0.4 s (issue 25,
// docs/benchmarks.md "Cold delivery"). Here those parsers become the client's own, once, and a
// query whose parsers are exactly those goes without them: the same rows, no copy.
import { type PGlite, types } from '@electric-sql/pglite'

type QueryOptions = NonNullable<Parameters<PGlite['query']>[2]>
type Transaction = Parameters<Parameters<PGlite['transaction']>[0]>[0]

/** The types drizzle-orm/pglite reads as text (`PglitePreparedQuery`'s `parsers`). */
export const TEXT_TYPES: readonly number[] = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]

const asText = (value: string) => value
const PROBE = '2026-11-28 07:00:00+00'

/**
 * Makes `client`'s own parsers read `TEXT_TYPES` as text and makes its `query` (and that of its
 * transactions) drop per-query parsers that only repeat them. Other parsers still go through.
 */
export function shareDrizzleParsers(client: PGlite): PGlite {
  for (const type of TEXT_TYPES) client.parsers[type] = asText
  // Only a parser of one of these types that returns its text unchanged is a repeat; the check
  // also finds the client's own ones replaced (PGlite resets array types when it reloads them).
  const repeats = (options: QueryOptions | undefined): boolean => {
    const parsers = options?.parsers
    if (parsers === undefined) return false
    for (const key in parsers) {
      const type = Number(key)
      if (client.parsers[type] !== asText || parsers[type]?.(PROBE) !== PROBE) return false
    }
    return true
  }
  const lean = (options: QueryOptions | undefined): QueryOptions | undefined => {
    if (!repeats(options)) return options
    const { parsers: _, ...rest } = options as QueryOptions
    return rest
  }
  const query = client.query.bind(client)
  client.query = ((text: string, params?: unknown[], options?: QueryOptions) =>
    query(text, params, lean(options))) as PGlite['query']
  const transaction = client.transaction.bind(client)
  client.transaction = ((run: (tx: Transaction) => Promise<unknown>) =>
    transaction((tx) => {
      const leanTx: Transaction = Object.create(tx)
      leanTx.query = ((text: string, params?: unknown[], options?: QueryOptions) =>
        tx.query(text, params, lean(options))) as Transaction['query']
      return run(leanTx)
    })) as PGlite['transaction']
  return client
}
