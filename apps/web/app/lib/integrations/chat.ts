// The chat-support widget (SPEC §3, §4, §6): it loads once a signed-in user is identified, and
// its init is the restore call: it carries the restoreId the widget gave this user before, so the
// conversation continues. Off without `chatToken`.
import type { KeyValueStore, SessionUser } from '../session.ts'

export type ChatStatus = 'off' | 'idle' | 'loading' | 'loaded' | 'error'

export interface ChatState {
  status: ChatStatus
  /** The user the widget was started for. */
  userId: string | null
  restoreId: string | null
  /** SPEC §3's isFcWidgetLoaded: the widget has reported that it is on the page. */
  isWidgetLoaded: boolean
}

export const INITIAL_CHAT: ChatState = {
  status: 'idle',
  userId: null,
  restoreId: null,
  isWidgetLoaded: false,
}

export type ChatAction =
  | { type: 'load_started'; userId: string; restoreId: string | null }
  | { type: 'load_failed' }
  | { type: 'initialised' }
  | { type: 'widget_loaded' }
  | { type: 'restore_id_received'; restoreId: string }
  | { type: 'stopped' }

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'load_started':
      return {
        ...state,
        status: 'loading',
        userId: action.userId,
        restoreId: action.restoreId,
        isWidgetLoaded: false,
      }
    case 'load_failed':
      return { ...state, status: 'error' }
    case 'initialised':
      return { ...state, status: 'loaded' }
    case 'widget_loaded':
      return { ...state, isWidgetLoaded: true }
    case 'restore_id_received':
      return { ...state, restoreId: action.restoreId }
    case 'stopped':
      return INITIAL_CHAT
  }
}

/** The widget starts for a signed-in user when its token is set, once per user. */
export function shouldStartChat(
  state: ChatState,
  input: { chatToken: string; user: SessionUser | null },
): boolean {
  if (input.chatToken === '' || input.user === null) return false
  return state.userId !== input.user._id
}

const RESTORE_PREFIX = 'tessera.chatRestoreId.'

/** The restoreId kept for a user, or null (also when storage throws). */
export function readRestoreId(store: KeyValueStore | undefined, userId: string): string | null {
  try {
    const value = store?.getItem(`${RESTORE_PREFIX}${userId}`) ?? null
    return value === '' ? null : value
  } catch {
    return null
  }
}

export function saveRestoreId(
  store: KeyValueStore | undefined,
  userId: string,
  restoreId: string,
): void {
  try {
    store?.setItem(`${RESTORE_PREFIX}${userId}`, restoreId)
  } catch {
    // Storage full or blocked: the next visit starts a new conversation, nothing worse.
  }
}

/** The widget's host: the origin its script comes from. */
export function chatHost(scriptUrl: string): string {
  try {
    return new URL(scriptUrl).origin
  } catch {
    return ''
  }
}

export interface ChatInitOptions {
  token: string
  host: string
  externalId: string
  restoreId?: string
  firstName: string
  lastName: string
  email: string
}

/** The restore call: who the user is and, when known, the restoreId of their conversation. */
export function chatInitOptions(input: {
  token: string
  scriptUrl: string
  user: SessionUser
  restoreId: string | null
}): ChatInitOptions {
  return {
    token: input.token,
    host: chatHost(input.scriptUrl),
    externalId: input.user._id,
    ...(input.restoreId === null ? {} : { restoreId: input.restoreId }),
    firstName: input.user.firstName,
    lastName: input.user.lastName,
    email: input.user.email,
  }
}

/** The restoreId in a widget event (`user:created` answers `{ data: { restoreId } }`). */
export function restoreIdOf(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined
  const data = (event as { data?: unknown }).data
  if (typeof data !== 'object' || data === null) return undefined
  const restoreId = (data as { restoreId?: unknown }).restoreId
  return typeof restoreId === 'string' && restoreId !== '' ? restoreId : undefined
}
