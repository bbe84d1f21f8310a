// Live sessions remembered for a few seconds in this process, so a signed-in page view does not
// read the database for its session (decision 011). Keyed by the session id (the sha256 of the
// cookie token), holding the session row and its user. Logout and a new session replacing one
// forget that session, a change to a user forgets that user's sessions (and so the user row they
// hold), here at once and, through the change feed (PostgreSQL NOTIFY), in every other process
// before the call answers; `ttlMs` only bounds how long an entry stays when a notification was
// lost. Memberships are not held here: they are read on every call that needs them, so a
// membership change needs no forgetting.
import {
  type Repository,
  SESSION_SEEN_RESOLUTION_MS,
  type Session,
  type User,
} from '../db/index.ts'
import { createTtlCache } from './cache.ts'
import type { Change } from './changes.ts'

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
  // The kept session ids of each user, so a change to one user forgets that user's sessions
  // only. It mirrors `entries` exactly (filled when an entry is kept, emptied by `onRemove`
  // whenever one leaves, pushed out or expired included), so it is never larger than the cache.
  const sessionsOfUser = new Map<string, Set<string>>()
  const entries = createTtlCache<string, LiveSession>({
    ttlMs: options.ttlMs,
    maxEntries: options.maxEntries,
    onRemove(id, live) {
      const ids = sessionsOfUser.get(live.user.id)
      ids?.delete(id)
      if (ids?.size === 0) sessionsOfUser.delete(live.user.id)
    },
  })
  // Bumped by every forgetting: a read that was in flight meanwhile may have seen the old row,
  // so it is not remembered.
  let generation = 0

  function keep(id: string, live: LiveSession): void {
    if (!entries.set(id, live)) return
    const ids = sessionsOfUser.get(live.user.id)
    if (ids === undefined) sessionsOfUser.set(live.user.id, new Set([id]))
    else ids.add(id)
  }

  function apply(change: Change): void {
    generation++
    if (change.kind === 'session') entries.delete(change.id)
    else if (change.kind === 'user') {
      // Copied first: each delete takes its id out of the set being read.
      for (const id of [...(sessionsOfUser.get(change.id) ?? [])]) entries.delete(id)
    }
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
      if (found !== undefined && generation === before) keep(id, found)
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
