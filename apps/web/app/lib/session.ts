// Session state of SPEC §3 and §4: the header's loading flag, who is signed in, the new-user
// flag, and the browser-side identifiers (anonymous id, affiliate data).

/** The signed-in user as the session answers it (session.passport.user). */
export interface SessionUser {
  _id: string
  email: string
  firstName: string
  lastName: string
  /** Whether the address was confirmed by a mailed link (decision 019). */
  emailVerified?: boolean
  /** False for Google accounts that never set a password. */
  hasPassword?: boolean
  createdAt: string
}

export interface SessionState {
  /** True while the session check runs (the header shows a loader). */
  loading: boolean
  isUserLoggedIn: boolean
  user: SessionUser | null
  isNewUser: boolean
}

export type SessionAction =
  | { type: 'check_started' }
  | { type: 'check_succeeded'; user: SessionUser; isNewUser: boolean }
  | { type: 'check_failed' }
  | { type: 'logged_out' }

export const INITIAL_SESSION: SessionState = {
  loading: true,
  isUserLoggedIn: false,
  user: null,
  isNewUser: false,
}

/** Success gives a logged-in user; any failure gives logged out with no user (SPEC §4, §8). */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'check_started':
      return { ...state, loading: true }
    case 'check_succeeded':
      return {
        loading: false,
        isUserLoggedIn: true,
        user: action.user,
        isNewUser: action.isNewUser,
      }
    case 'check_failed':
    case 'logged_out':
      return { loading: false, isUserLoggedIn: false, user: null, isNewUser: false }
  }
}

/** The header greeting's initial: the first letter of firstName, or 'U'. */
export function initialOf(user: Pick<SessionUser, 'firstName'> | null): string {
  const first = user?.firstName.trim().charAt(0) ?? ''
  return first === '' ? 'U' : first.toUpperCase()
}

/** `__preview=true` puts the site in preview mode: no session check, stay logged out. */
export function isPreviewMode(search: string): boolean {
  return new URLSearchParams(search).get('__preview') === 'true'
}

/** The rejection of the session check in preview mode (SPEC §4, §8). */
export const PREVIEW_REJECTION = { authenticated: false } as const

/** The query without the `session` parameter, or undefined when there was none. */
export function withoutSessionParam(search: string): string | undefined {
  const params = new URLSearchParams(search)
  if (!params.has('session')) return undefined
  params.delete('session')
  const rest = params.toString()
  return rest === '' ? '' : `?${rest}`
}

/** The part of Storage these helpers use (localStorage in the browser, a Map in tests). */
export interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export const KNOWN_USERS_KEY = 'tessera.knownUsers'
export const ANONYMOUS_ID_KEYS = ['pixb_anonymous_id', 'anonymous_id', 'ajs_anonymous_id'] as const
export const AFFILIATE_KEY = 'tessera.affiliate'

/**
 * The new-user flag (SPEC §4): true when the id is not in the stored list of known users; the id
 * is then added, so the flag is true once per browser.
 */
export function markKnownUser(store: KeyValueStore, userId: string): boolean {
  let known: unknown
  try {
    known = JSON.parse(store.getItem(KNOWN_USERS_KEY) ?? '[]')
  } catch {
    known = []
  }
  const list = Array.isArray(known) ? known.filter((id) => typeof id === 'string') : []
  if (list.includes(userId)) return false
  store.setItem(KNOWN_USERS_KEY, JSON.stringify([...list, userId]))
  return true
}

/** The anonymous id under all three keys of SPEC §3, made once and reused after. */
export function ensureAnonymousId(store: KeyValueStore, makeId: () => string): string {
  let id: string | undefined
  for (const key of ANONYMOUS_ID_KEYS) {
    const value = store.getItem(key)
    if (value !== null && value !== '') {
      id = value
      break
    }
  }
  id ??= makeId()
  for (const key of ANONYMOUS_ID_KEYS) store.setItem(key, id)
  return id
}

/** Whether the store accepts a write and a removal (private modes and full disks do not). */
export function isStorageUsable(store: KeyValueStore | undefined): store is KeyValueStore {
  if (store === undefined) return false
  const probe = '__tessera_probe__'
  try {
    store.setItem(probe, probe)
    store.removeItem(probe)
    return true
  } catch {
    return false
  }
}

/** Keeps the affiliate referrer (`fp_ref`, nothing else) when storage works; returns it. */
export function storeAffiliate(
  store: KeyValueStore | undefined,
  search: string,
): string | undefined {
  const ref = new URLSearchParams(search).get('fp_ref')
  if (ref === null || ref === '' || !isStorageUsable(store)) return undefined
  store.setItem(AFFILIATE_KEY, JSON.stringify({ fp_ref: ref }))
  return ref
}

export const SESSION_COOKIE = 'bg.session'

/** Whether a Cookie header carries a non-empty session cookie (only then is a check useful). */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  if (cookieHeader === null) return false
  return cookieHeader.split(';').some((part) => {
    const [name, ...value] = part.split('=')
    return name?.trim() === SESSION_COOKIE && value.join('=').trim() !== ''
  })
}

/**
 * The session as the server found it while rendering: the state the header starts from, so it
 * paints signed in or anonymous at once (the check already ran, so the loading flag is false).
 */
export function sessionFromServer(user: SessionUser | null): SessionState {
  return { loading: false, isUserLoggedIn: user !== null, user, isNewUser: false }
}
