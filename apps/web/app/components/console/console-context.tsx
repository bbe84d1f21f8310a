// What every signed-in console page shares: the user, their organisations, the one being worked
// in, and its calls. The app layout's loader decides the organisation; pages read it here.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { Organization } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { type ConsoleApi, consoleApi, problemOf } from '../../lib/console-api.ts'
import type { SessionUser } from '../../lib/session.ts'

export interface ConsoleValue {
  user: SessionUser
  organizations: Organization[]
  org: Organization
  api: ConsoleApi
}

const ConsoleContext = createContext<ConsoleValue | null>(null)

export function ConsoleProvider({
  user,
  organizations,
  org,
  children,
}: {
  user: SessionUser
  organizations: Organization[]
  org: Organization
  children: React.ReactNode
}) {
  const config = useConfig()
  const session = useSession()
  const api = useMemo(() => consoleApi(session.client, config, org._id), [session, config, org])
  const value = useMemo(() => ({ user, organizations, org, api }), [user, organizations, org, api])
  return <ConsoleContext.Provider value={value}>{children}</ConsoleContext.Provider>
}

export function useConsole(): ConsoleValue {
  const value = useContext(ConsoleContext)
  if (value === null) throw new Error('useConsole outside of the console layout')
  return value
}

export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T }

/**
 * Loads data in the browser when `key` changes; `reload()` runs it again. An answer that comes
 * back after a newer request started is dropped, so fast typing never shows stale results.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  key: string,
): { state: Loaded<T>; reload: () => Promise<void>; set: (data: T) => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' })
  const latest = useRef(0)
  const loadRef = useRef(load)
  loadRef.current = load
  const run = useCallback(async (quiet: boolean) => {
    const ticket = ++latest.current
    if (!quiet) setState({ status: 'loading' })
    try {
      const data = await loadRef.current()
      if (ticket === latest.current) setState({ status: 'ready', data })
    } catch (error) {
      if (ticket === latest.current) setState({ status: 'error', message: problemOf(error) })
    }
  }, [])
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what is loaded
  useEffect(() => {
    void run(false)
  }, [key, run])
  const reload = useCallback(() => run(true), [run])
  const set = useCallback((data: T) => setState({ status: 'ready', data }), [])
  return { state, reload, set }
}

/** Loading, error (with a retry) and empty states of a list, in one place. */
export function ListState<T>({
  state,
  empty,
  onRetry,
  label,
  children,
}: {
  state: Loaded<T>
  empty: (data: T) => React.ReactNode | null
  onRetry: () => void
  label: string
  children: (data: T) => React.ReactNode
}) {
  if (state.status === 'loading') {
    return (
      <p className="console-state" role="status" data-testid="list-loading">
        <span className="spinner" aria-hidden="true" /> Loading {label}…
      </p>
    )
  }
  if (state.status === 'error') {
    return (
      <div className="form-alert is-error console-state" role="alert" data-testid="list-error">
        <span>
          Could not load {label}: {state.message}
        </span>{' '}
        <button type="button" className="button is-small is-secondary" onClick={onRetry}>
          Try again
        </button>
      </div>
    )
  }
  const emptyState = empty(state.data)
  if (emptyState !== null) {
    return (
      <div className="console-empty" data-testid="list-empty">
        {emptyState}
      </div>
    )
  }
  return <>{children(state.data)}</>
}

/** Copies text and says so for a moment. */
export function CopyButton({
  text,
  label = 'Copy',
  className = 'button is-small is-secondary',
  testId,
}: {
  text: string
  label?: string
  className?: string
  testId?: string
}) {
  const [done, setDone] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setDone('copied')
    } catch {
      setDone('failed')
    }
    setTimeout(() => setDone('idle'), 2000)
  }
  return (
    <button type="button" className={className} onClick={copy} data-testid={testId}>
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : label}
    </button>
  )
}

/**
 * A modal dialog on the native <dialog>: focus moves in and is kept inside, Escape closes it,
 * and focus goes back to where it was.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  testId,
}: {
  title: string
  open: boolean
  onClose: () => void
  children: React.ReactNode
  testId?: string
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const opener = useRef<Element | null>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (open && !dialog.open) {
      opener.current = document.activeElement
      dialog.showModal()
    } else if (!open && dialog.open) {
      dialog.close()
    }
    if (!open && opener.current instanceof HTMLElement) {
      opener.current.focus()
      opener.current = null
    }
  }, [open])
  const titleId = `${testId ?? 'dialog'}-title`
  return (
    <dialog
      ref={ref}
      className="console-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
    >
      {open ? (
        <>
          <div className="console-dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="button is-ghost is-small" onClick={onClose}>
              Close
            </button>
          </div>
          {children}
        </>
      ) : null}
    </dialog>
  )
}

/** A dialog form's buttons: its own (`children`), then Cancel, which closes it. */
export function DialogButtons({
  onClose,
  children,
}: {
  onClose: () => void
  children: React.ReactNode
}) {
  return (
    <div className="button-row">
      {children}
      <button type="button" className="button is-ghost" onClick={onClose}>
        Cancel
      </button>
    </div>
  )
}

export function ErrorText({ message, testId }: { message: string | null; testId?: string }) {
  if (message === null) return null
  return (
    <div className="form-alert is-error" role="alert" data-testid={testId ?? 'action-error'}>
      {message}
    </div>
  )
}

/**
 * Whether the caller's role owns the organisation (buys, sees receipts, manages owners and
 * webhooks); a session that names no role is its creator's (docs/web.md, "Roles").
 */
export function ownsOrg(role: string | undefined): boolean {
  return role === undefined || role === 'owner'
}

/** Whether the caller's role manages the organisation's settings and keys (owners, admins). */
export function managesSettings(role: string | undefined): boolean {
  return ownsOrg(role) || role === 'admin'
}

export function formatDate(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
}
