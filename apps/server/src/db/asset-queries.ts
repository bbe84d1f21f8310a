import type { Db } from './database.ts'

/**
 * The asset queries (see createRepository). Everything here is read and written through an
 * organisation's id.
 */
export function createAssetQueries(_db: Db) {
  return {}
}
