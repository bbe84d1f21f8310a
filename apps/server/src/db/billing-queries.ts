import type { Db } from './database.ts'

/**
 * The billing queries (see createRepository). Everything here is read and written through an
 * organisation's id.
 */
export function createBillingQueries(_db: Db) {
  return {}
}
