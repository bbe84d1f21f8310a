// Live sessions remembered for a few seconds in this process, so a signed-in page view does not
// read the database for its session (decision 011). Keyed by the session id (the sha256 of the
// cookie token), holding the session row and its user. Logout, a new session replacing one, and
// any change to a user forget here at once and, through the change feed (PostgreSQL NOTIFY), in
// every other process before the call answers; `ttlMs` only bounds how long an entry stays when
// a notification was lost. Memberships are not held here: they are read on every call that needs
// them, so a membership change needs no forgetting.
import {
  type Repository,
  SESSION_SEEN_RESOLUTION_MS,
  type Session,
  type User,
} from '../db/index.ts'
import { createTtlCache } from '../platform/cache.ts'
import type { Change } from '../platform/changes.ts'

export interface LiveSession {
  session: Session
  user: User
}

export interface SessionCache {
  /** The unexpired session with this id and its user (from memory when known). */
  find(id: string): Promise<LiveSession | undefined>
  /** Forgets a session (after it was deleted) in every process; resolves when they were told. */
  forgetSession(id: string): Promise<void>
  /** Forgets every session of a user (after the user row changed) in every process. */
  forgetUser(userId: string): Promise<void>
  /** Forgets what `change` makes stale, in this process only (the change feed calls it). */
  apply(change: Change): void
  /** Forgets every session, in this process only. */
  forgetAll(): void
}

export interface SessionCacheOptions {
  ttlMs: number
  maxEntries: number
  /** Tells every process about a change (the change feed); without it, this process only. */
  publish?: (change: Change) => Promise<void>
}

export function createSessionCache(
  repo: Pick<Repository, 'findLiveSession'>,
  options: SessionCacheOptions,
): SessionCache {
  const entries = createTtlCache<string, LiveSession>(options)
  // Bumped by every forgetting: a read that was in flight meanwhile may have seen the old row,
  // so it is not remembered.
  let generation = 0

  function apply(change: Change): void {
    generation++
    if (change.kind === 'session') entries.delete(change.id)
    // A user's sessions are not indexed by user: users change rarely (profile meta, a linked
    // Google account, a rehashed password), so forgetting all costs one read per active session.
    else if (change.kind === 'user') entries.clear()
  }

  const publish = (change: Change): Promise<void> => {
    if (options.publish !== undefined) return options.publish(change)
    apply(change)
    return Promise.resolve()
  }

  return {
    async find(id) {
      const known = entries.get(id)
      const now = Date.now()
      if (
        known !== undefined &&
        known.session.expiresAt.getTime() > now &&
        // Past the resolution `last_seen_at` is due to be written: the database read does it.
        now - known.session.lastSeenAt.getTime() < SESSION_SEEN_RESOLUTION_MS
      ) {
        return known
      }
      if (known !== undefined) entries.delete(id)
      const before = generation
      const found = await repo.findLiveSession(id)
      if (found !== undefined && generation === before) entries.set(id, found)
      return found
    },
    forgetSession: (id) => publish({ kind: 'session', id }),
    forgetUser: (userId) => publish({ kind: 'user', id: userId }),
    apply,
    forgetAll() {
      generation++
      entries.clear()
    },
  }
}
