// Wires the third-party integrations to the page (DESIGN §1): each stays off without its key,
// loads only in the browser, and a failed script is logged while the page carries on (SPEC §8).
import { useEffect, useReducer, useRef } from 'react'
import { useLocation } from 'react-router'
import { USERS } from '../api.ts'
import { useConfig, useSession } from '../app-context.tsx'
import { joinUrl } from '../runtime-config.ts'
import { AFFILIATE_KEY, ANONYMOUS_ID_KEYS, isPreviewMode } from '../session.ts'
import {
  analyticsReducer,
  containerStartEntry,
  type DataLayerEntry,
  INITIAL_ANALYTICS,
  identifyEntries,
  identityKey,
  pageViewFor,
  tagManagerPlan,
  tagManagerUrl,
  watchForStart,
} from './analytics.ts'
import {
  type ChatInitOptions,
  chatInitOptions,
  chatReducer,
  INITIAL_CHAT,
  readRestoreId,
  restoreIdOf,
  saveRestoreId,
  shouldStartChat,
} from './chat.ts'
import { createErrorReporter, type ErrorReporter, isChunkLoadError } from './error-reporting.ts'
import {
  type GoogleIdentity,
  INITIAL_ONE_TAP,
  oneTapReducer,
  oneTapSignInBody,
  runOneTap,
  shouldOfferOneTap,
} from './one-tap.ts'
import { routeErrors } from './route-errors.ts'
import { loadScript } from './script-loader.ts'

/** The Freshchat-style widget API the chat adapter uses. */
interface ChatWidget {
  init(options: ChatInitOptions): void
  on?(event: string, listener: (event: unknown) => void): void
  destroy?(): void
}

declare global {
  interface Window {
    dataLayer?: DataLayerEntry[]
    google?: { accounts?: { id?: GoogleIdentity } }
    fcWidget?: ChatWidget
  }
}

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

/** The anonymous id of SPEC §3; throws when storage is blocked (one-tap then goes without). */
function anonymousId(): string | undefined {
  return window.localStorage.getItem(ANONYMOUS_ID_KEYS[0]) ?? undefined
}

function affiliateRef(): string | undefined {
  try {
    const stored: unknown = JSON.parse(storage()?.getItem(AFFILIATE_KEY) ?? 'null')
    const ref = (stored as { fp_ref?: unknown } | null)?.fp_ref
    return typeof ref === 'string' && ref !== '' ? ref : undefined
  } catch {
    return undefined
  }
}

function safeAnonymousId(): string | undefined {
  try {
    return anonymousId()
  } catch {
    return undefined
  }
}

/** Renders nothing: the integrations' state lives here, their effects run after hydration. */
export function Integrations() {
  const config = useConfig()
  const session = useSession()
  const location = useLocation()
  const [oneTap, oneTapDispatch] = useReducer(oneTapReducer, INITIAL_ONE_TAP)
  const [analytics, analyticsDispatch] = useReducer(analyticsReducer, INITIAL_ANALYTICS)
  const [chat, chatDispatch] = useReducer(chatReducer, INITIAL_CHAT)
  const reporter = useRef<ErrorReporter | undefined>(undefined)
  const preview = useRef<boolean | undefined>(undefined)

  const log = (message: string, error: unknown) => {
    console.error(message, error)
    reporter.current?.capture(error, { integration: 'true' })
  }

  // Error reporting first, so the others' failures are reported; failed chunks are logged always.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page load
  useEffect(() => {
    preview.current = isPreviewMode(window.location.search)
    if (config.errorReportingDsn !== '') {
      reporter.current = createErrorReporter({
        dsn: config.errorReportingDsn,
        url: () => window.location.href,
        send: (url, body) =>
          fetch(url, {
            method: 'POST',
            body,
            mode: 'no-cors',
            keepalive: true,
            credentials: 'omit',
          }),
      })
    }
    const onError = (event: ErrorEvent) => {
      reporter.current?.capture(event.error ?? event.message)
    }
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isChunkLoadError(event.reason)) console.error('Failed to load a code chunk', event.reason)
      reporter.current?.capture(event.reason)
    }
    const onPreloadError = (event: Event) => {
      const error = (event as Event & { payload?: unknown }).payload
      console.error('Failed to load a code chunk', error)
      reporter.current?.capture(error, { chunk: 'true' })
    }
    const stopRouteErrors = routeErrors.subscribe((error) =>
      reporter.current?.capture(error, { boundary: 'true' }),
    )
    window.addEventListener('error', onError)
    window.addEventListener('unhandledrejection', onRejection)
    window.addEventListener('vite:preloadError', onPreloadError)
    return () => {
      stopRouteErrors()
      window.removeEventListener('error', onError)
      window.removeEventListener('unhandledrejection', onRejection)
      window.removeEventListener('vite:preloadError', onPreloadError)
    }
  }, [])

  // Google one-tap: after the check settles logged out, never in preview mode.
  // biome-ignore lint/correctness/useExhaustiveDependencies: started once, when the check settles
  useEffect(() => {
    if (oneTap.status !== 'idle') return
    const offer = shouldOfferOneTap({
      clientId: config.googleClientId,
      sessionLoading: session.loading,
      isUserLoggedIn: session.isUserLoggedIn,
      previewMode: preview.current ?? isPreviewMode(window.location.search),
    })
    if (!offer) return
    void runOneTap({
      clientId: config.googleClientId,
      scriptUrl: config.scripts.google,
      loadScript,
      identity: () => window.google?.accounts?.id,
      anonymousId,
      dispatch: oneTapDispatch,
      log,
      signIn: async (credential, id) => {
        const answer = await session.client.request<{ isNewUser?: boolean }>(
          joinUrl(config.apiUrl, `${USERS}/auth/google`),
          {
            method: 'POST',
            body: oneTapSignInBody({
              credential,
              path: window.location.pathname,
              anonymousId: id,
              affiliateRef: affiliateRef(),
            }),
          },
        )
        // The header shows the profile button without a reload.
        await session.refresh()
        return { isNewUser: answer.isNewUser === true }
      },
    })
  }, [session.loading, session.isUserLoggedIn])

  // The tag manager: once per page load, when its key is set (skipped in development).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page load
  useEffect(() => {
    const plan = tagManagerPlan({
      analyticsId: config.analyticsId,
      // The mode, not DEV: a build made under NODE_ENV=test (the browser tests') is not development.
      development: import.meta.env.MODE === 'development',
    })
    if (plan === 'off') return
    if (plan === 'skip') {
      analyticsDispatch({ type: 'load_skipped' })
      return
    }
    window.dataLayer ??= []
    const dataLayer = window.dataLayer
    dataLayer.push(containerStartEntry(Date.now()))
    analyticsDispatch({ type: 'load_started' })
    const recheck = watchForStart(dataLayer, () => analyticsDispatch({ type: 'started' }))
    loadScript(tagManagerUrl(config.scripts.analytics, config.analyticsId)).then(
      () => {
        analyticsDispatch({ type: 'load_succeeded' })
        recheck()
      },
      (error: unknown) => {
        log('Analytics: the tag manager did not load', error)
        analyticsDispatch({ type: 'load_failed' })
      },
    )
  }, [])

  // Page views on every route change once analytics has started, except for `/`.
  useEffect(() => {
    if (!analytics.initiated) return
    const view = pageViewFor(analytics, {
      pathname: location.pathname,
      href: window.location.href,
      title: document.title,
    })
    if (view !== undefined) window.dataLayer?.push(view)
    if (analytics.lastPath !== location.pathname) {
      analyticsDispatch({ type: 'route_seen', path: location.pathname })
    }
  }, [analytics, location.pathname])

  // The visitor is identified once analytics has started and the check has settled.
  useEffect(() => {
    if (!analytics.initiated || session.loading) return
    const who = identityKey(session.user)
    if (who === analytics.identified) return
    for (const entry of identifyEntries(session.user, safeAnonymousId())) {
      window.dataLayer?.push(entry)
    }
    analyticsDispatch({ type: 'identified', who })
  }, [analytics.initiated, analytics.identified, session.loading, session.user])

  // The chat widget, once a signed-in user is identified; its init is the restore call.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the signed-in user only
  useEffect(() => {
    const user = session.user
    if (user === null) {
      if (chat.userId !== null) {
        window.fcWidget?.destroy?.()
        chatDispatch({ type: 'stopped' })
      }
      return
    }
    if (!shouldStartChat(chat, { chatToken: config.chatToken, user })) return
    const restoreId = readRestoreId(storage(), user._id)
    chatDispatch({ type: 'load_started', userId: user._id, restoreId })
    loadScript(config.scripts.chat).then(
      () => {
        const widget = window.fcWidget
        if (widget === undefined) {
          log('Chat: the widget did not start', new Error('fcWidget is missing'))
          chatDispatch({ type: 'load_failed' })
          return
        }
        widget.init(
          chatInitOptions({
            token: config.chatToken,
            scriptUrl: config.scripts.chat,
            user,
            restoreId,
          }),
        )
        widget.on?.('widget:loaded', () => chatDispatch({ type: 'widget_loaded' }))
        widget.on?.('user:created', (event) => {
          const received = restoreIdOf(event)
          if (received === undefined) return
          saveRestoreId(storage(), user._id, received)
          chatDispatch({ type: 'restore_id_received', restoreId: received })
        })
        chatDispatch({ type: 'initialised' })
      },
      (error: unknown) => {
        log('Chat: the widget did not load', error)
        chatDispatch({ type: 'load_failed' })
      },
    )
  }, [session.user])

  return null
}
