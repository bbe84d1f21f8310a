// Errors that a route's error boundary caught: React does not rethrow them, so the window's
// error events never see them. The boundary hands them here; error reporting subscribes. A
// boundary can render (and hand an error over) before the reporter has started, so errors wait
// in a short buffer until someone listens.

export type RouteErrorListener = (error: unknown) => void

/** Errors kept while nobody listens; older ones are dropped. */
export const MAX_BUFFERED_ROUTE_ERRORS = 10

export function createRouteErrorChannel() {
  const buffered: unknown[] = []
  const listeners = new Set<RouteErrorListener>()
  return {
    /** Called by error boundaries with what they caught. */
    report(error: unknown): void {
      if (listeners.size === 0) {
        buffered.push(error)
        if (buffered.length > MAX_BUFFERED_ROUTE_ERRORS) buffered.shift()
        return
      }
      for (const listener of listeners) listener(error)
    },
    /** Receives every error from now on, and at once those that waited. Returns an unsubscribe. */
    subscribe(listener: RouteErrorListener): () => void {
      listeners.add(listener)
      for (const error of buffered.splice(0)) listener(error)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

/** The page's channel. */
export const routeErrors = createRouteErrorChannel()
