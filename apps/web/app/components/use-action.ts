// The state of a form's or a button's call to the API, kept the same way by every console and
// account page: whether it runs, and why the last one failed.
import { useCallback, useState } from 'react'
import { problemOf } from '../lib/console-api.ts'

export interface Action {
  busy: boolean
  /** What went wrong with the last call, as people read it; null while none failed. */
  error: string | null
  setError: (error: string | null) => void
  /** Clears the error, runs `work` and keeps its failure in `error`; true when it succeeded. */
  attempt: (work: () => Promise<unknown>) => Promise<boolean>
  /** `attempt`, with `busy` set while it runs. */
  run: (work: () => Promise<unknown>) => Promise<boolean>
}

/** A call's busy state and error; `run` and `attempt` never throw. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const attempt = useCallback(async (work: () => Promise<unknown>) => {
    setError(null)
    try {
      await work()
      return true
    } catch (reason) {
      setError(problemOf(reason))
      return false
    }
  }, [])
  const run = useCallback(
    async (work: () => Promise<unknown>) => {
      setBusy(true)
      try {
        return await attempt(work)
      } finally {
        setBusy(false)
      }
    },
    [attempt],
  )
  return { busy, error, setError, attempt, run }
}
