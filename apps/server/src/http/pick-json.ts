// Rows as the calls answer them: a projection names the fields it answers (so a column it does
// not name, like a secret or a hash, never leaks) and dates go out as ISO 8601 text.

/** A field as an answer carries it: a date as ISO 8601 text, anything else as it is. */
export type Answered<T> = T extends Date ? string : T

/** The fields of `row` named by `fields`, in that order, dates as ISO 8601 text. */
export function pickJson<Row extends object, Field extends keyof Row & string>(
  row: Row,
  fields: readonly Field[],
): { [F in Field]: Answered<Row[F]> } {
  const json: Record<string, unknown> = {}
  for (const field of fields) {
    const value = row[field]
    json[field] = value instanceof Date ? value.toISOString() : value
  }
  return json as { [F in Field]: Answered<Row[F]> }
}
