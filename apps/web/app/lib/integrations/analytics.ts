// The analytics tag manager and the analytics it starts (SPEC §4, §6): the container loads
// (loading → loaded | error; skipped in development), the analytics becomes initiated on the
// container's start event, and from then on every route change except `/` is reported as a page
// view and the visitor is identified (AUTHORISED_USER or UNAUTHORISED_USER).
import type { SessionUser } from '../session.ts'
import { withQuery } from './script-loader.ts'

export const AUTHORISED_USER = 'AUTHORISED_USER'
export const UNAUTHORISED_USER = 'UNAUTHORISED_USER'
/** The tag manager's own event once the page has loaded under it: analytics has started. */
export const START_EVENT = 'gtm.load'
export const PAGE_VIEW_EVENT = 'page_view'
export const IDENTIFY_EVENT = 'identify'

export type TagManagerStatus = 'off' | 'skipped' | 'loading' | 'loaded' | 'error'

export interface AnalyticsState {
  tagManager: TagManagerStatus
  /** The analytics script has started (SPEC §3's flag). */
  initiated: boolean
  /** The path of the last route seen (reported or not): a page view is sent when it changes. */
  lastPath: string | null
  /** Who was last identified (`user:{id}` or `anonymous`), so a visitor is identified once. */
  identified: string | null
}

export const INITIAL_ANALYTICS: AnalyticsState = {
  tagManager: 'off',
  initiated: false,
  lastPath: null,
  identified: null,
}

export type AnalyticsAction =
  | { type: 'load_skipped' }
  | { type: 'load_started' }
  | { type: 'load_succeeded' }
  | { type: 'load_failed' }
  | { type: 'started' }
  | { type: 'route_seen'; path: string }
  | { type: 'identified'; who: string }

export function analyticsReducer(state: AnalyticsState, action: AnalyticsAction): AnalyticsState {
  switch (action.type) {
    case 'load_skipped':
      return { ...state, tagManager: 'skipped' }
    case 'load_started':
      return { ...state, tagManager: 'loading' }
    case 'load_succeeded':
      return state.tagManager === 'loading' ? { ...state, tagManager: 'loaded' } : state
    case 'load_failed':
      return state.tagManager === 'loading' ? { ...state, tagManager: 'error' } : state
    case 'started':
      // The container may announce its start before its script's load event has been handled.
      return state.tagManager === 'loading' || state.tagManager === 'loaded'
        ? { ...state, initiated: true }
        : state
    case 'route_seen':
      return { ...state, lastPath: action.path }
    case 'identified':
      return { ...state, identified: action.who }
  }
}

/** Whether the container should load: a key is set and this is not a development build. */
export function tagManagerPlan(input: {
  analyticsId: string
  development: boolean
}): 'off' | 'skip' | 'load' {
  if (input.analyticsId === '') return 'off'
  return input.development ? 'skip' : 'load'
}

/** The container script's address (`?id=` names the container, as Google Tag Manager expects). */
export function tagManagerUrl(scriptUrl: string, analyticsId: string): string {
  return withQuery(scriptUrl, { id: analyticsId })
}

/** A dataLayer entry. */
export type DataLayerEntry = Record<string, unknown>

/** The entry the container expects before its script runs. */
export function containerStartEntry(now: number): DataLayerEntry {
  return { 'gtm.start': now, event: 'gtm.js' }
}

export function isStartEvent(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && 'event' in entry
    ? (entry as { event: unknown }).event === START_EVENT
    : false
}

/**
 * The page view to report for a route change, or undefined: none before analytics has started,
 * none for `/`, none when the path did not change (a query or hash change is not a new page).
 */
export function pageViewFor(
  state: AnalyticsState,
  location: { pathname: string; href: string; title: string },
): DataLayerEntry | undefined {
  if (!state.initiated || location.pathname === '/' || location.pathname === state.lastPath) {
    return undefined
  }
  return {
    event: PAGE_VIEW_EVENT,
    page_path: location.pathname,
    page_location: location.href,
    page_title: location.title,
  }
}

/** The identity key of a visitor, compared with `state.identified` to identify once. */
export function identityKey(user: SessionUser | null): string {
  return user === null ? 'anonymous' : `user:${user._id}`
}

/** The entries that identify the visitor (SPEC §4) with SPEC §6's role event. */
export function identifyEntries(
  user: SessionUser | null,
  anonymousId: string | undefined,
): DataLayerEntry[] {
  const anonymous = anonymousId === undefined ? {} : { anonymousId }
  if (user === null) return [{ event: UNAUTHORISED_USER, ...anonymous }]
  return [
    {
      event: IDENTIFY_EVENT,
      userId: user._id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      createdAt: user.createdAt,
      ...anonymous,
    },
    { event: AUTHORISED_USER, userId: user._id },
  ]
}

/**
 * Calls `onStart` once the start event is (or already was) in the dataLayer. The container
 * chains the `push` it finds, so the wrapper keeps seeing entries after it has loaded.
 */
export function watchForStart<T>(dataLayer: T[], onStart: () => void): () => boolean {
  let started = false
  const check = (): boolean => {
    if (started) return true
    for (let index = 0; index < dataLayer.length; index++) {
      if (isStartEvent(dataLayer[index])) {
        started = true
        onStart()
        return true
      }
    }
    return false
  }
  const push = dataLayer.push
  dataLayer.push = (...entries: T[]) => {
    const length = push.apply(dataLayer, entries)
    if (!started && entries.some(isStartEvent)) check()
    return length
  }
  check()
  return check
}
