// The housekeeping of signed uploads (decision 016): storage stays bounded by the live URLs.
import type { AppContext } from '../context.ts'

/** Stale uploads cleaned per housekeeping pass. */
const CLEANUP_BATCH = 200

/**
 * The housekeeping task: removes uploads that expired or whose completion died, with every part
 * they stored; answers how many uploads went.
 */
export async function expireSignedUploads(app: Pick<AppContext, 'repo' | 'storage'>) {
  const stale = await app.repo.staleSignedUploads(CLEANUP_BATCH)
  await Promise.allSettled(
    stale.flatMap((upload) => upload.storageKeys.map((key) => app.storage.delete(key))),
  )
  await app.repo.deleteSignedUploads(stale.map((upload) => upload.id))
  return stale.length
}
