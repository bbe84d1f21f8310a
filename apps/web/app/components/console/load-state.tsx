// Data a console page loads in the browser, and the loading, error and empty states of a list.
import { useCallback, useEffect, useRef, useState } from 'react'
import { problemOf } from '../../lib/console-api.ts'

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

/**
 * Loading, error (with a retry) and empty states of what `load` (a `useLoad`) loads, in one
 * place; `children` shows it once it is there.
 */
export function ListState<T>({
  load,
  empty = () => null,
  label,
  children,
}: {
  load: { state: Loaded<T>; reload: () => Promise<unknown> }
  /** What to say instead when there is nothing to show; null to show it. */
  empty?: (data: T) => React.ReactNode | null
  label: string
  children: (data: T) => React.ReactNode
}) {
  const { state } = load
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
        <button
          type="button"
          className="button is-small is-secondary"
          onClick={() => void load.reload()}
        >
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

/**
 * ListState's `empty` for a list, or a page of one (`items`): `text` in a paragraph when it holds
 * nothing, as `empty={emptyText('No tokens yet.')}`.
 */
export function emptyText(
  text: string,
): (data: readonly unknown[] | { items: readonly unknown[] }) => React.ReactNode | null {
  return (data) => (('items' in data ? data.items : data).length > 0 ? null : <p>{text}</p>)
}
