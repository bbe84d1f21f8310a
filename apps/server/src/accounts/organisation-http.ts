// Small pieces every organisation route shares: its answers are never cached, and ids in its
// path that are not uuids are as unknown as missing rows.
import type { Context } from 'hono'
import type { AppEnv } from '../context.ts'
import { isUuid } from '../db/index.ts'
import { HttpError } from '../http/errors.ts'

/** Marks the answer `Cache-Control: no-store`: it is about one caller's organisation. */
export function noStore(c: Context<AppEnv>): void {
  c.header('cache-control', 'no-store')
}

/** A path parameter that must be a uuid; anything else is as unknown as a missing row. */
export function idParam(c: Context<AppEnv>, name: string, what: string): string {
  const value = c.req.param(name) ?? ''
  if (!isUuid(value)) throw new HttpError(404, `${what}_not_found`, `No ${what} ${value}`)
  return value
}
