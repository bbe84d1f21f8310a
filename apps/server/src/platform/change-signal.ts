// A change signal: parts that keep something derived (the page cache) subscribe, and whoever
// changes the source (a content reload, or another process's notice) notifies them.

export interface ChangeSignal {
  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: () => void): () => void
  /** Tells every subscriber that the source changed. */
  notify(): void
}

export function createChangeSignal(): ChangeSignal {
  const listeners = new Set<() => void>()
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    notify() {
      for (const listener of listeners) listener()
    },
  }
}
