// Runs uploads from the upload state: at most three at a time, each with its own abort
// controller, so one or all can be cancelled and failed ones retried.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react'
import { codeOf, problemOf } from '../../lib/console-api.ts'
import { HttpError } from '../../lib/http-client.ts'
import { INITIAL_UPLOAD_STATE, type UploadEntry, uploadReducer } from '../../lib/upload-state.ts'

const PARALLEL = 3

export type UploadWork<S> = (
  entry: UploadEntry,
  source: S,
  signal: AbortSignal,
  onProgress: (loaded: number, total: number) => void,
) => Promise<{ fullPath: string; url: string }>

export function useUploadQueue<S>(work: UploadWork<S>) {
  const [state, dispatch] = useReducer(uploadReducer, INITIAL_UPLOAD_STATE)
  const [finished, setFinished] = useState(0)
  const sources = useRef(new Map<string, S>())
  const running = useRef(new Map<string, AbortController>())
  const workRef = useRef(work)
  workRef.current = work

  // Starts queued entries while there is room (again each time one finishes).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `finished` frees a slot
  useEffect(() => {
    const free = PARALLEL - running.current.size
    if (free <= 0) return
    const next = state.entries.filter(
      (entry) => entry.status === 'queued' && !running.current.has(entry.id),
    )
    for (const entry of next.slice(0, free)) {
      const source = sources.current.get(entry.id)
      if (source === undefined) continue
      const controller = new AbortController()
      running.current.set(entry.id, controller)
      dispatch({ type: 'start', id: entry.id })
      workRef
        .current(entry, source, controller.signal, (loaded, total) =>
          dispatch({ type: 'progress', id: entry.id, loaded, total }),
        )
        .then((result) => dispatch({ type: 'succeeded', id: entry.id, ...result }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return
          const code =
            codeOf(error) ?? (error instanceof HttpError ? `http_${error.status}` : 'network')
          dispatch({ type: 'failed', id: entry.id, code, message: problemOf(error) })
        })
        .finally(() => {
          running.current.delete(entry.id)
          // Wakes the effect for the next queued entry.
          setFinished((count) => count + 1)
        })
    }
  }, [state.entries, finished])

  const add = useCallback((items: { label: string; name: string; total: number; source: S }[]) => {
    const entries = items.map((item) => {
      const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
      sources.current.set(id, item.source)
      return { id, label: item.label, name: item.name, total: item.total }
    })
    dispatch({ type: 'add', entries })
  }, [])

  const cancel = useCallback((id: string) => {
    running.current.get(id)?.abort()
    dispatch({ type: 'cancel', id })
  }, [])
  const cancelAll = useCallback(() => {
    for (const controller of running.current.values()) controller.abort()
    dispatch({ type: 'cancel_all' })
  }, [])
  const retry = useCallback(
    (id: string, change: { name?: string; overwrite?: boolean }) =>
      dispatch({ type: 'retry', id, ...change }),
    [],
  )
  const retryFailed = useCallback(() => dispatch({ type: 'retry_failed' }), [])
  const clear = useCallback(() => dispatch({ type: 'clear_finished' }), [])

  return { state, add, cancel, cancelAll, retry, retryFailed, clear }
}
