import { describe, expect, it, vi } from 'vitest'
import {
  type AnalyticsAction,
  type AnalyticsState,
  AUTHORISED_USER,
  analyticsReducer,
  INITIAL_ANALYTICS,
  identifyEntries,
  identityKey,
  pageViewFor,
  tagManagerPlan,
  tagManagerUrl,
  UNAUTHORISED_USER,
  watchForStart,
} from './analytics.ts'
import { ADA } from './test-user.ts'

const reduce = (actions: AnalyticsAction[], from: AnalyticsState = INITIAL_ANALYTICS) =>
  actions.reduce(analyticsReducer, from)

const user = ADA

describe('the tag manager load (SPEC §4)', () => {
  it('is off without a key and skipped in development', () => {
    expect(tagManagerPlan({ analyticsId: '', development: false })).toBe('off')
    expect(tagManagerPlan({ analyticsId: 'GTM-1', development: true })).toBe('skip')
    expect(tagManagerPlan({ analyticsId: 'GTM-1', development: false })).toBe('load')
  })

  it('goes loading → loaded, or loading → error', () => {
    expect(reduce([{ type: 'load_started' }]).tagManager).toBe('loading')
    expect(reduce([{ type: 'load_started' }, { type: 'load_succeeded' }]).tagManager).toBe('loaded')
    expect(reduce([{ type: 'load_started' }, { type: 'load_failed' }]).tagManager).toBe('error')
  })

  it('records a skipped load', () => {
    expect(reduce([{ type: 'load_skipped' }]).tagManager).toBe('skipped')
  })

  it('names the container in the script address', () => {
    expect(tagManagerUrl('https://www.googletagmanager.com/gtm.js', 'GTM-AB12')).toBe(
      'https://www.googletagmanager.com/gtm.js?id=GTM-AB12',
    )
  })
})

describe('the analytics script (SPEC §3, §4)', () => {
  it('goes not initiated → initiated on the start event', () => {
    expect(INITIAL_ANALYTICS.initiated).toBe(false)
    const state = reduce([
      { type: 'load_started' },
      { type: 'load_succeeded' },
      { type: 'started' },
    ])
    expect(state.initiated).toBe(true)
  })

  it('accepts the start event that arrives before the load event is handled', () => {
    expect(reduce([{ type: 'load_started' }, { type: 'started' }]).initiated).toBe(true)
  })

  it('does not start when the container failed or never loaded', () => {
    expect(reduce([{ type: 'started' }]).initiated).toBe(false)
    expect(
      reduce([{ type: 'load_started' }, { type: 'load_failed' }, { type: 'started' }]).initiated,
    ).toBe(false)
  })
})

describe('page views (SPEC §4)', () => {
  const started = reduce([
    { type: 'load_started' },
    { type: 'load_succeeded' },
    { type: 'started' },
  ])
  const at = (pathname: string) => ({ pathname, href: `https://x.test${pathname}`, title: 'T' })

  it('reports a route change', () => {
    expect(pageViewFor(started, at('/pricing'))).toEqual({
      event: 'page_view',
      page_path: '/pricing',
      page_location: 'https://x.test/pricing',
      page_title: 'T',
    })
  })

  it('does not report the root path', () => {
    expect(pageViewFor(started, at('/'))).toBeUndefined()
  })

  it('reports nothing before analytics has started', () => {
    expect(pageViewFor(INITIAL_ANALYTICS, at('/pricing'))).toBeUndefined()
  })

  it('does not report the same path twice in a row, and reports it again after another page', () => {
    const onPricing = analyticsReducer(started, { type: 'route_seen', path: '/pricing' })
    expect(pageViewFor(onPricing, at('/pricing'))).toBeUndefined()
    const onHome = analyticsReducer(onPricing, { type: 'route_seen', path: '/' })
    expect(pageViewFor(onHome, at('/pricing'))).toBeDefined()
  })
})

describe('identification (SPEC §4, §6)', () => {
  it('identifies a signed-in user with AUTHORISED_USER', () => {
    const entries = identifyEntries(user, 'anon-1')
    expect(entries).toEqual([
      {
        event: 'identify',
        userId: 'u1',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        createdAt: '2025-01-01T00:00:00.000Z',
        anonymousId: 'anon-1',
      },
      { event: AUTHORISED_USER, userId: 'u1' },
    ])
    expect(AUTHORISED_USER).toBe('AUTHORISED_USER')
  })

  it('marks an anonymous visitor with UNAUTHORISED_USER', () => {
    expect(identifyEntries(null, 'anon-1')).toEqual([
      { event: UNAUTHORISED_USER, anonymousId: 'anon-1' },
    ])
    expect(identifyEntries(null, undefined)).toEqual([{ event: 'UNAUTHORISED_USER' }])
  })

  it('keys a visitor so a change of user is identified again', () => {
    const state = analyticsReducer(INITIAL_ANALYTICS, {
      type: 'identified',
      who: identityKey(null),
    })
    expect(state.identified).toBe('anonymous')
    expect(identityKey(user)).toBe('user:u1')
  })
})

describe('watching the dataLayer for the start event', () => {
  it('sees a start event pushed later, once', () => {
    const layer: Record<string, unknown>[] = [{ event: 'gtm.js' }]
    const onStart = vi.fn()
    watchForStart(layer, onStart)
    layer.push({ event: 'gtm.dom' })
    expect(onStart).not.toHaveBeenCalled()
    layer.push({ event: 'gtm.load' })
    layer.push({ event: 'gtm.load' })
    expect(onStart).toHaveBeenCalledTimes(1)
    expect(layer).toHaveLength(4)
  })

  it('sees a start event already there, and one found by a later check', () => {
    const onStart = vi.fn()
    watchForStart([{ event: 'gtm.load' }], onStart)
    expect(onStart).toHaveBeenCalledTimes(1)
    const replaced: Record<string, unknown>[] = []
    const later = vi.fn()
    const check = watchForStart(replaced, later)
    // A container that swaps `push` without chaining: the check on load still finds the event.
    replaced.push = Array.prototype.push
    replaced.push({ event: 'gtm.load' })
    expect(later).not.toHaveBeenCalled()
    expect(check()).toBe(true)
    expect(later).toHaveBeenCalledTimes(1)
  })
})
