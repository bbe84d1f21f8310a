import { describe, expect, it, vi } from 'vitest'
import {
  createOneTapCallback,
  type GoogleIdentity,
  INITIAL_ONE_TAP,
  INVALID_NOTIFICATION_MESSAGE,
  momentOutcome,
  type OneTapAction,
  type OneTapState,
  oneTapReducer,
  oneTapSignInBody,
  runOneTap,
  shouldOfferOneTap,
} from './one-tap.ts'

const reduce = (actions: OneTapAction[], from: OneTapState = INITIAL_ONE_TAP) =>
  actions.reduce(oneTapReducer, from)

describe('when one-tap is offered (SPEC §4, §6)', () => {
  const base = { clientId: 'id', sessionLoading: false, isUserLoggedIn: false, previewMode: false }

  it('is offered to a logged-out visitor once the session check has settled', () => {
    expect(shouldOfferOneTap(base)).toBe(true)
  })

  it.each([
    ['without a client id', { clientId: '' }],
    ['while the session check runs', { sessionLoading: true }],
    ['to a signed-in user', { isUserLoggedIn: true }],
    ['in preview mode', { previewMode: true }],
  ])('is not offered %s', (_name, change) => {
    expect(shouldOfferOneTap({ ...base, ...change })).toBe(false)
  })
})

describe('the one-tap callback (SPEC §5, §8)', () => {
  it.each([undefined, null])('throws the SPEC message when it receives %s', (response) => {
    const onCredential = vi.fn()
    expect(() => createOneTapCallback(onCredential)(response)).toThrow(
      new Error(INVALID_NOTIFICATION_MESSAGE),
    )
    expect(INVALID_NOTIFICATION_MESSAGE).toBe('Invalid notification object from Google One Tap.')
    expect(onCredential).not.toHaveBeenCalled()
  })

  it('throws the same message for an object without a credential', () => {
    expect(() => createOneTapCallback(vi.fn())({ select_by: 'auto' })).toThrow(
      INVALID_NOTIFICATION_MESSAGE,
    )
  })

  it('passes the ID token on', () => {
    const onCredential = vi.fn()
    createOneTapCallback(onCredential)({ credential: 'header.payload.signature' })
    expect(onCredential).toHaveBeenCalledWith('header.payload.signature')
  })
})

describe('one-tap state (SPEC §4)', () => {
  it('records shown, then success after the sign-in', () => {
    const state = reduce([
      { type: 'load_started', withAnonymousId: true },
      { type: 'prompted' },
      { type: 'moment', outcome: 'shown', reason: null },
      { type: 'credential_received' },
      { type: 'sign_in_succeeded', isNewUser: true },
    ])
    expect(state.status).toBe('signed_in')
    expect(state.outcomes).toEqual(['shown', 'success'])
    expect(state.isNewUser).toBe(true)
    expect(state.withAnonymousId).toBe(true)
  })

  it('records not displayed, skipped and dismissed with the reason of the last one', () => {
    const state = reduce([
      { type: 'load_started', withAnonymousId: false },
      { type: 'prompted' },
      { type: 'moment', outcome: 'not_displayed', reason: 'opt_out_or_no_session' },
      { type: 'moment', outcome: 'skipped', reason: 'auto_cancel' },
      { type: 'moment', outcome: 'dismissed', reason: 'cancel_called' },
    ])
    expect(state.outcomes).toEqual(['not_displayed', 'skipped', 'dismissed'])
    expect(state.reason).toBe('cancel_called')
    expect(state.status).toBe('prompted')
  })

  it('ends in error when the script fails or the sign-in is refused', () => {
    expect(reduce([{ type: 'load_failed', error: 'blocked' }])).toMatchObject({
      status: 'error',
      error: 'blocked',
    })
    const refused = reduce([
      { type: 'credential_received' },
      { type: 'sign_in_failed', error: '401' },
    ])
    expect(refused.status).toBe('error')
    expect(refused.outcomes).toEqual([])
  })
})

describe('prompt moments', () => {
  it('reads the moment type of the FedCM form', () => {
    expect(momentOutcome({ getMomentType: () => 'display' })).toEqual({
      outcome: 'shown',
      reason: null,
    })
    expect(
      momentOutcome({ getMomentType: () => 'skipped', getSkippedReason: () => 'user_cancel' }),
    ).toEqual({ outcome: 'skipped', reason: 'user_cancel' })
  })

  it('reads the older is* form', () => {
    expect(
      momentOutcome({
        isDisplayed: () => false,
        isNotDisplayed: () => true,
        getNotDisplayedReason: () => 'browser_not_supported',
      }),
    ).toEqual({ outcome: 'not_displayed', reason: 'browser_not_supported' })
  })

  it('ignores the dismissal that only hands over the credential', () => {
    expect(
      momentOutcome({
        getMomentType: () => 'dismissed',
        getDismissedReason: () => 'credential_returned',
      }),
    ).toBeUndefined()
    expect(
      momentOutcome({ isDismissedMoment: () => true, getDismissedReason: () => 'cancel_called' }),
    ).toEqual({ outcome: 'dismissed', reason: 'cancel_called' })
  })
})

describe('the sign-in body (SPEC §7.2)', () => {
  it('carries the credential, the state with the anonymous id and the affiliate data', () => {
    expect(
      oneTapSignInBody({
        credential: 'jwt',
        path: '/pricing',
        anonymousId: 'a1',
        affiliateRef: 'r9',
      }),
    ).toEqual({
      credential: 'jwt',
      state: { path: '/pricing', anonymousId: 'a1' },
      affiliate: { fp_ref: 'r9' },
    })
  })

  it('leaves out what is not known', () => {
    expect(
      oneTapSignInBody({
        credential: 'jwt',
        path: '/',
        anonymousId: undefined,
        affiliateRef: undefined,
      }),
    ).toEqual({ credential: 'jwt', state: { path: '/' } })
  })
})

describe('running one-tap', () => {
  function fakeGoogle() {
    const calls: { initialize: unknown[]; prompts: number } = { initialize: [], prompts: 0 }
    let callback: ((response?: unknown) => void) | undefined
    let listener: ((moment: unknown) => void) | undefined
    const identity: GoogleIdentity = {
      initialize(options) {
        calls.initialize.push(options)
        callback = options.callback as (response?: unknown) => void
      },
      prompt(onMoment) {
        calls.prompts += 1
        listener = onMoment as (moment: unknown) => void
      },
    }
    return {
      identity,
      calls,
      answer: (response?: unknown) => callback?.(response),
      moment: (moment: unknown) => listener?.(moment),
    }
  }

  function setup(overrides: Partial<Parameters<typeof runOneTap>[0]> = {}) {
    const google = fakeGoogle()
    const actions: OneTapAction[] = []
    const logged: string[] = []
    const signIn = vi.fn(async () => ({ isNewUser: false }))
    const run = {
      clientId: 'client-1',
      scriptUrl: 'https://accounts.example/gsi/client',
      loadScript: vi.fn(async () => undefined),
      identity: () => google.identity,
      anonymousId: () => 'anon-1',
      dispatch: (action: OneTapAction) => actions.push(action),
      signIn,
      log: (message: string) => logged.push(message),
      ...overrides,
    }
    return { run, google, actions, logged, signIn }
  }

  it('loads the script, initialises with the client id and asks for the prompt', async () => {
    const { run, google, actions } = setup()
    await runOneTap(run)
    expect(run.loadScript).toHaveBeenCalledWith('https://accounts.example/gsi/client')
    expect(google.calls.initialize).toMatchObject([{ client_id: 'client-1' }])
    expect(google.calls.prompts).toBe(1)
    google.moment({ getMomentType: () => 'display' })
    expect(actions).toEqual([
      { type: 'load_started', withAnonymousId: true },
      { type: 'prompted' },
      { type: 'moment', outcome: 'shown', reason: null },
    ])
  })

  it('signs in with the credential and the anonymous id, then records success', async () => {
    const { run, google, actions, signIn } = setup()
    await runOneTap(run)
    google.answer({ credential: 'id-token' })
    await vi.waitFor(() => expect(actions.at(-1)?.type).toBe('sign_in_succeeded'))
    expect(signIn).toHaveBeenCalledWith('id-token', 'anon-1')
  })

  it('throws the SPEC error to Google when the callback gets no object', async () => {
    const { run, google, signIn } = setup()
    await runOneTap(run)
    expect(() => google.answer()).toThrow(INVALID_NOTIFICATION_MESSAGE)
    expect(signIn).not.toHaveBeenCalled()
  })

  it('loads without the anonymous id when reading it fails (SPEC §4)', async () => {
    const { run, google, actions, logged, signIn } = setup({
      anonymousId: () => {
        throw new Error('storage blocked')
      },
    })
    await runOneTap(run)
    expect(actions[0]).toEqual({ type: 'load_started', withAnonymousId: false })
    expect(logged[0]).toMatch(/without it/)
    google.answer({ credential: 'id-token' })
    await vi.waitFor(() => expect(signIn).toHaveBeenCalledWith('id-token', undefined))
  })

  it('logs a script that does not load and ends in error (SPEC §8)', async () => {
    const { run, actions, logged } = setup({
      loadScript: vi.fn(async () => {
        throw new Error('blocked')
      }),
    })
    await runOneTap(run)
    expect(actions.at(-1)).toMatchObject({ type: 'load_failed' })
    expect(logged).toEqual(['One-tap: Google Identity Services did not load'])
  })

  it('logs a refused sign-in and ends in error', async () => {
    const { run, google, actions, logged } = setup({
      signIn: vi.fn(async () => {
        throw new Error('401')
      }),
    })
    await runOneTap(run)
    google.answer({ credential: 'bad' })
    await vi.waitFor(() => expect(actions.at(-1)).toMatchObject({ type: 'sign_in_failed' }))
    expect(logged).toEqual(['One-tap: the sign-in failed'])
  })
})
