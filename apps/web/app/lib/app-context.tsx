// Client-side state shared by every page: the runtime configuration, the HTTP client and the
// session (SPEC §3, §4).
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
} from 'react'
import { useLocation, useNavigate } from 'react-router'
import { getSession } from './api.ts'
import { createHttpClient, type HttpClient } from './http-client.ts'
import { loginUrl } from './links.ts'
import type { RuntimeConfig } from './runtime-config.ts'
import {
  ensureAnonymousId,
  INITIAL_SESSION,
  isPreviewMode,
  isStorageUsable,
  markKnownUser,
  type SessionState,
  type SessionUser,
  sessionFromServer,
  sessionReducer,
  storeAffiliate,
  withoutSessionParam,
} from './session.ts'

const ConfigContext = createContext<RuntimeConfig | null>(null)

interface SessionValue extends SessionState {
  /** Runs the session check again (after a login, sign-up or logout). */
  refresh: () => Promise<void>
  client: HttpClient
}

const SessionContext = createContext<SessionValue | null>(null)

export function useConfig(): RuntimeConfig {
  const config = useContext(ConfigContext)
  if (config === null) throw new Error('useConfig outside of AppProvider')
  return config
}

export function useSession(): SessionValue {
  const session = useContext(SessionContext)
  if (session === null) throw new Error('useSession outside of AppProvider')
  return session
}

function browserStore(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

function randomId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}

export function AppProvider({
  config,
  serverUser,
  children,
}: {
  config: RuntimeConfig
  /**
   * The session the root loader resolved while rendering (null: anonymous). Absent only on the
   * root error page, which has no loader data: the browser checks the session itself there.
   */
  serverUser?: SessionUser | null
  children: ReactNode
}) {
  const [state, dispatch] = useReducer(
    sessionReducer,
    serverUser === undefined ? INITIAL_SESSION : sessionFromServer(serverUser),
  )
  const location = useLocation()
  const navigate = useNavigate()

  const client = useMemo(
    () =>
      createHttpClient({
        origin: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
        signingKey: config.panelSigningKey,
        fetch: (request) => fetch(request),
        onUnauthorized: () => {
          const { pathname, search, href } = window.location
          window.location.assign(loginUrl(config.consoleUrl, { pathname, search, href }))
        },
      }),
    [config],
  )

  const check = useCallback(async () => {
    if (isPreviewMode(window.location.search)) {
      // Preview mode: the check is rejected with authenticated false, the visitor stays out.
      dispatch({ type: 'check_failed' })
      return
    }
    dispatch({ type: 'check_started' })
    try {
      const user = await getSession(client, config)
      const store = browserStore()
      const isNewUser = isStorageUsable(store) ? markKnownUser(store, user._id) : false
      dispatch({ type: 'check_succeeded', user, isNewUser })
    } catch {
      dispatch({ type: 'check_failed' })
    }
  }, [client, config])

  // Once per page load, before any child's effect (one-tap reads them at once): the anonymous id
  // and the affiliate data.
  useLayoutEffect(() => {
    const store = browserStore()
    if (isStorageUsable(store)) ensureAnonymousId(store, randomId)
    storeAffiliate(store, window.location.search)
  }, [])

  // The session check, unless the server already ran it (then only the browser-side new-user
  // flag is left to work out, below). This is the last mount effect of the page: it marks the
  // page hydrated (`<html data-hydrated>`), which the browser tests wait for.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on the first render
  useEffect(() => {
    if (serverUser === undefined) void check()
    document.documentElement.dataset.hydrated = 'true'
  }, [])

  // The server's answer, on the first render and whenever the root loader runs again (after a
  // navigation that revalidates it): signed in or out, with the new-user flag of this browser.
  const serverUserId = serverUser === undefined ? undefined : (serverUser?._id ?? null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the user's id
  useEffect(() => {
    if (serverUser === undefined) return
    if (serverUser === null) {
      dispatch({ type: 'logged_out' })
      return
    }
    const store = browserStore()
    const isNewUser = isStorageUsable(store) ? markKnownUser(store, serverUser._id) : false
    dispatch({ type: 'check_succeeded', user: serverUser, isNewUser })
  }, [serverUserId])

  // The `session` parameter is read (the check above ran with it) and then removed.
  useEffect(() => {
    const rest = withoutSessionParam(location.search)
    if (rest === undefined) return
    navigate(`${location.pathname}${rest}${location.hash}`, {
      replace: true,
      preventScrollReset: true,
    })
  }, [location, navigate])

  const session = useMemo(() => ({ ...state, refresh: check, client }), [state, check, client])
  return (
    <ConfigContext.Provider value={config}>
      <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
    </ConfigContext.Provider>
  )
}
