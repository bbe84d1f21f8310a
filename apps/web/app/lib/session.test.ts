import { describe, expect, it } from 'vitest'
import {
  AFFILIATE_KEY,
  ANONYMOUS_ID_KEYS,
  ensureAnonymousId,
  hasSessionCookie,
  INITIAL_SESSION,
  initialOf,
  isPreviewMode,
  isStorageUsable,
  type KeyValueStore,
  markKnownUser,
  sessionFromServer,
  sessionReducer,
  storeAffiliate,
  withoutSessionParam,
} from './session.ts'

const user = {
  _id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  createdAt: '2026-01-01T00:00:00.000Z',
}

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  }
}

describe('session state (SPEC §3, §4)', () => {
  it('starts loading, logged out', () => {
    expect(INITIAL_SESSION).toEqual({
      loading: true,
      isUserLoggedIn: false,
      user: null,
      isNewUser: false,
    })
  })

  it('logs the user in when the check succeeds and stops loading', () => {
    const state = sessionReducer(INITIAL_SESSION, {
      type: 'check_succeeded',
      user,
      isNewUser: true,
    })
    expect(state).toEqual({ loading: false, isUserLoggedIn: true, user, isNewUser: true })
  })

  it('is logged out with no user after any failure', () => {
    const inside = sessionReducer(INITIAL_SESSION, {
      type: 'check_succeeded',
      user,
      isNewUser: false,
    })
    expect(sessionReducer(inside, { type: 'check_failed' })).toEqual({
      loading: false,
      isUserLoggedIn: false,
      user: null,
      isNewUser: false,
    })
  })

  it('shows the loader again while a new check runs', () => {
    const done = sessionReducer(INITIAL_SESSION, { type: 'check_failed' })
    expect(sessionReducer(done, { type: 'check_started' }).loading).toBe(true)
  })

  it("greets with the first name's initial, or U", () => {
    expect(initialOf(user)).toBe('A')
    expect(initialOf({ firstName: 'émile' })).toBe('É')
    expect(initialOf({ firstName: '  ' })).toBe('U')
    expect(initialOf(null)).toBe('U')
  })
})

describe('query parameters', () => {
  it('is in preview mode only with __preview=true', () => {
    expect(isPreviewMode('?__preview=true')).toBe(true)
    expect(isPreviewMode('?__preview=1')).toBe(false)
  })

  it('removes the session parameter and keeps the others', () => {
    expect(withoutSessionParam('?session=abc&x=1')).toBe('?x=1')
    expect(withoutSessionParam('?session=abc')).toBe('')
    expect(withoutSessionParam('?x=1')).toBeUndefined()
  })
})

describe('browser storage', () => {
  it('flags a user as new once, then remembers them', () => {
    const store = memoryStore()
    expect(markKnownUser(store, 'u1')).toBe(true)
    expect(markKnownUser(store, 'u1')).toBe(false)
    expect(markKnownUser(store, 'u2')).toBe(true)
  })

  it('survives a corrupted list of known users', () => {
    const store = memoryStore()
    store.setItem('tessera.knownUsers', '{not json')
    expect(markKnownUser(store, 'u1')).toBe(true)
  })

  it('keeps one anonymous id under all three keys', () => {
    const store = memoryStore()
    const id = ensureAnonymousId(store, () => 'anon-1')
    expect(id).toBe('anon-1')
    for (const key of ANONYMOUS_ID_KEYS) expect(store.getItem(key)).toBe('anon-1')
    expect(ensureAnonymousId(store, () => 'anon-2')).toBe('anon-1')
  })

  it('reuses an id found under any of the keys', () => {
    const store = memoryStore()
    store.setItem('ajs_anonymous_id', 'from-analytics')
    expect(ensureAnonymousId(store, () => 'new')).toBe('from-analytics')
    expect(store.getItem('pixb_anonymous_id')).toBe('from-analytics')
  })

  it('stores only fp_ref of the affiliate parameters', () => {
    const store = memoryStore()
    expect(storeAffiliate(store, '?fp_ref=partner&utm_source=x')).toBe('partner')
    expect(JSON.parse(store.getItem(AFFILIATE_KEY) ?? '')).toEqual({ fp_ref: 'partner' })
  })

  it('stores nothing when storage does not work', () => {
    const broken: KeyValueStore = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {},
    }
    expect(isStorageUsable(broken)).toBe(false)
    expect(storeAffiliate(broken, '?fp_ref=partner')).toBeUndefined()
    expect(storeAffiliate(undefined, '?fp_ref=partner')).toBeUndefined()
  })
})

describe('the session resolved on the server', () => {
  it('asks only when the bg.session cookie is there and not empty', () => {
    expect(hasSessionCookie(null)).toBe(false)
    expect(hasSessionCookie('')).toBe(false)
    expect(hasSessionCookie('theme=dark; bg.sessionx=1')).toBe(false)
    expect(hasSessionCookie('bg.session=')).toBe(false)
    expect(hasSessionCookie('theme=dark; bg.session=abc=def')).toBe(true)
    expect(hasSessionCookie('bg.session=abc')).toBe(true)
  })

  it('starts the header settled: signed in with the user, or anonymous', () => {
    expect(sessionFromServer(user)).toEqual({
      loading: false,
      isUserLoggedIn: true,
      user,
      isNewUser: false,
    })
    expect(sessionFromServer(null)).toEqual({ ...INITIAL_SESSION, loading: false })
  })
})
