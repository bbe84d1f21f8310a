// Google one-tap (SPEC §4, §5, §6, §8): offered only to a logged-out visitor once the session check
// has settled (never in preview mode); its credential signs in through the server's
// POST …/auth/google. The state below records what happened to the prompt.

/** SPEC §5/§8: the callback's answer to a missing notification (credential) object. */
export const INVALID_NOTIFICATION_MESSAGE = 'Invalid notification object from Google One Tap.'

/** What happened to the prompt (SPEC §4). */
export type OneTapOutcome = 'shown' | 'not_displayed' | 'skipped' | 'dismissed' | 'success'

export type OneTapStatus =
  /** Not started (off, signed in, preview mode, or the check still running). */
  | 'idle'
  | 'loading'
  /** The prompt was asked for; the moments below tell what came of it. */
  | 'prompted'
  | 'signing_in'
  | 'signed_in'
  /** The script did not load, or the sign-in call failed: the Login and Sign up buttons remain. */
  | 'error'

export interface OneTapState {
  status: OneTapStatus
  /** Every outcome, in order (a dismissed prompt may be shown again on a later page load). */
  outcomes: OneTapOutcome[]
  /** Google's reason for the last not-displayed, skipped or dismissed moment. */
  reason: string | null
  /** Whether the anonymous id went with the sign-in (false after the fallback of SPEC §4). */
  withAnonymousId: boolean
  isNewUser: boolean
  error: string | null
}

export const INITIAL_ONE_TAP: OneTapState = {
  status: 'idle',
  outcomes: [],
  reason: null,
  withAnonymousId: false,
  isNewUser: false,
  error: null,
}

export type OneTapAction =
  | { type: 'load_started'; withAnonymousId: boolean }
  | { type: 'load_failed'; error: string }
  | { type: 'prompted' }
  | { type: 'moment'; outcome: Exclude<OneTapOutcome, 'success'>; reason: string | null }
  | { type: 'credential_received' }
  | { type: 'sign_in_succeeded'; isNewUser: boolean }
  | { type: 'sign_in_failed'; error: string }

export function oneTapReducer(state: OneTapState, action: OneTapAction): OneTapState {
  switch (action.type) {
    case 'load_started':
      return { ...state, status: 'loading', withAnonymousId: action.withAnonymousId, error: null }
    case 'load_failed':
      return { ...state, status: 'error', error: action.error }
    case 'prompted':
      return { ...state, status: 'prompted' }
    case 'moment':
      return { ...state, outcomes: [...state.outcomes, action.outcome], reason: action.reason }
    case 'credential_received':
      return { ...state, status: 'signing_in' }
    case 'sign_in_succeeded':
      return {
        ...state,
        status: 'signed_in',
        outcomes: [...state.outcomes, 'success'],
        reason: null,
        isNewUser: action.isNewUser,
      }
    case 'sign_in_failed':
      return { ...state, status: 'error', error: action.error }
  }
}

/** One-tap is offered when its key is set, the check has settled logged out, and not in preview. */
export function shouldOfferOneTap(input: {
  clientId: string
  sessionLoading: boolean
  isUserLoggedIn: boolean
  previewMode: boolean
}): boolean {
  return (
    input.clientId !== '' && !input.sessionLoading && !input.isUserLoggedIn && !input.previewMode
  )
}

/** The prompt-moment notification of Google Identity Services (older and FedCM forms). */
export interface PromptMoment {
  getMomentType?: () => string
  isDisplayed?: () => boolean
  isNotDisplayed?: () => boolean
  isSkippedMoment?: () => boolean
  isDismissedMoment?: () => boolean
  getNotDisplayedReason?: () => string
  getSkippedReason?: () => string
  getDismissedReason?: () => string
}

/**
 * The outcome a prompt moment stands for, or undefined for the dismissal that only means the
 * credential was handed over (the callback records that as success).
 */
export function momentOutcome(
  moment: PromptMoment,
): { outcome: Exclude<OneTapOutcome, 'success'>; reason: string | null } | undefined {
  const type = moment.getMomentType?.()
  if (type === 'dismissed' || moment.isDismissedMoment?.() === true) {
    const reason = moment.getDismissedReason?.() ?? null
    return reason === 'credential_returned' ? undefined : { outcome: 'dismissed', reason }
  }
  if (type === 'skipped' || moment.isSkippedMoment?.() === true) {
    return { outcome: 'skipped', reason: moment.getSkippedReason?.() ?? null }
  }
  if (moment.isNotDisplayed?.() === true) {
    return { outcome: 'not_displayed', reason: moment.getNotDisplayedReason?.() ?? null }
  }
  if (type === 'display' || moment.isDisplayed?.() === true) {
    return { outcome: 'shown', reason: null }
  }
  return undefined
}

/** What Google hands the callback: the ID token (JWT) of the chosen account. */
export interface CredentialResponse {
  credential?: unknown
  select_by?: string
}

/**
 * The callback given to `google.accounts.id.initialize`: throws SPEC §8's error when Google hands
 * it no object (or one without a credential), otherwise passes the ID token on.
 */
export function createOneTapCallback(
  onCredential: (credential: string) => void,
): (response?: CredentialResponse | null) => void {
  return (response) => {
    if (response === null || typeof response !== 'object') {
      throw new Error(INVALID_NOTIFICATION_MESSAGE)
    }
    const { credential } = response
    if (typeof credential !== 'string' || credential === '') {
      throw new Error(INVALID_NOTIFICATION_MESSAGE)
    }
    onCredential(credential)
  }
}

/** The body of POST …/auth/google: the ID token plus the state and affiliate data (SPEC §7.2). */
export interface OneTapSignInBody {
  credential: string
  state: { path: string; anonymousId?: string }
  affiliate?: { fp_ref: string }
}

export function oneTapSignInBody(input: {
  credential: string
  path: string
  anonymousId: string | undefined
  affiliateRef: string | undefined
}): OneTapSignInBody {
  return {
    credential: input.credential,
    state: {
      path: input.path,
      ...(input.anonymousId === undefined ? {} : { anonymousId: input.anonymousId }),
    },
    ...(input.affiliateRef === undefined ? {} : { affiliate: { fp_ref: input.affiliateRef } }),
  }
}

/** The part of Google Identity Services one-tap uses. */
export interface GoogleIdentity {
  initialize(options: {
    client_id: string
    callback: (response?: CredentialResponse | null) => void
    auto_select?: boolean
    cancel_on_tap_outside?: boolean
    itp_support?: boolean
    use_fedcm_for_prompt?: boolean
    context?: 'signin' | 'signup' | 'use'
  }): void
  prompt(listener?: (moment: PromptMoment) => void): void
  cancel?(): void
}

export interface OneTapRun {
  clientId: string
  scriptUrl: string
  loadScript: (src: string) => Promise<void>
  /** `google.accounts.id` once the script has run. */
  identity: () => GoogleIdentity | undefined
  /** The anonymous id; it may throw (storage blocked), and one-tap then loads without it. */
  anonymousId: () => string | undefined
  dispatch: (action: OneTapAction) => void
  /** Signs in with the credential and the anonymous id it was loaded with. */
  signIn: (credential: string, anonymousId: string | undefined) => Promise<{ isNewUser: boolean }>
  log: (message: string, error: unknown) => void
}

/**
 * Loads the script and asks for the prompt. Failures are logged and end in `error`; the page
 * keeps its Login and Sign up buttons (SPEC §8).
 */
export async function runOneTap(run: OneTapRun): Promise<void> {
  let anonymousId: string | undefined
  try {
    anonymousId = run.anonymousId()
  } catch (error) {
    run.log('One-tap: the anonymous id could not be read; loading without it', error)
    anonymousId = undefined
  }
  run.dispatch({ type: 'load_started', withAnonymousId: anonymousId !== undefined })
  try {
    await run.loadScript(run.scriptUrl)
  } catch (error) {
    run.log('One-tap: Google Identity Services did not load', error)
    run.dispatch({ type: 'load_failed', error: String(error) })
    return
  }
  const identity = run.identity()
  if (identity === undefined) {
    const error = new Error('google.accounts.id is missing after the script loaded')
    run.log('One-tap: Google Identity Services did not start', error)
    run.dispatch({ type: 'load_failed', error: error.message })
    return
  }
  const callback = createOneTapCallback((credential) => {
    run.dispatch({ type: 'credential_received' })
    run.signIn(credential, anonymousId).then(
      ({ isNewUser }) => run.dispatch({ type: 'sign_in_succeeded', isNewUser }),
      (error: unknown) => {
        run.log('One-tap: the sign-in failed', error)
        run.dispatch({ type: 'sign_in_failed', error: String(error) })
      },
    )
  })
  identity.initialize({
    client_id: run.clientId,
    callback,
    auto_select: false,
    cancel_on_tap_outside: true,
    itp_support: true,
    use_fedcm_for_prompt: true,
    context: 'signin',
  })
  run.dispatch({ type: 'prompted' })
  identity.prompt((moment) => {
    const outcome = momentOutcome(moment)
    if (outcome !== undefined) run.dispatch({ type: 'moment', ...outcome })
  })
}
