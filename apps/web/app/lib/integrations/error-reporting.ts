// The error-reporting client (SPEC §7.2): uncaught errors, unhandled rejections and failed code
// chunks are posted to a third-party service that speaks the Sentry envelope protocol (Sentry,
// GlitchTip, self-hosted Sentry). The DSN names the service: https://{key}@{host}/{projectId}.

export interface Dsn {
  /** Where envelopes go, with the public key in the query (no preflight, no custom headers). */
  envelopeUrl: string
  publicKey: string
  projectId: string
  dsn: string
}

/** The DSN's parts, or undefined when it is not one. */
export function parseDsn(dsn: string): Dsn | undefined {
  let url: URL
  try {
    url = new URL(dsn)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  const publicKey = decodeURIComponent(url.username)
  const segments = url.pathname.split('/').filter((part) => part !== '')
  const projectId = segments.pop()
  if (publicKey === '' || projectId === undefined || !/^\w+$/.test(projectId)) return undefined
  const prefix = segments.length === 0 ? '' : `/${segments.join('/')}`
  const query = new URLSearchParams({ sentry_key: publicKey, sentry_version: '7' })
  return {
    envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${projectId}/envelope/?${query}`,
    publicKey,
    projectId,
    dsn,
  }
}

export interface ErrorEvent {
  event_id: string
  timestamp: number
  platform: 'javascript'
  level: 'error'
  logger: string
  environment: string
  request: { url: string; headers?: Record<string, string> }
  exception: { values: { type: string; value: string; stacktrace?: { frames: StackFrame[] } }[] }
  tags: Record<string, string>
}

interface StackFrame {
  filename: string
  function: string
  lineno?: number
  colno?: number
  in_app: boolean
}

/** Frames of a V8 or SpiderMonkey stack, outermost first as the protocol wants. */
export function parseStack(stack: string | undefined): StackFrame[] {
  if (stack === undefined) return []
  const frames: StackFrame[] = []
  for (const line of stack.split('\n')) {
    const v8 = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line)
    const gecko = /^\s*(.*?)@(.+?):(\d+):(\d+)$/.exec(line)
    const match = v8 ?? gecko
    if (match === null) continue
    frames.push({
      function: match[1] === undefined || match[1] === '' ? '?' : match[1],
      filename: match[2] ?? '?',
      lineno: Number(match[3]),
      colno: Number(match[4]),
      in_app: true,
    })
  }
  return frames.reverse()
}

/** The event for an error (anything thrown: non-errors are described by their string form). */
export function errorEvent(
  error: unknown,
  context: { eventId: string; now: number; url: string; tags?: Record<string, string> },
): ErrorEvent {
  const type = error instanceof Error ? error.name : 'Error'
  const value = error instanceof Error ? error.message : String(error)
  const frames = error instanceof Error ? parseStack(error.stack) : []
  return {
    event_id: context.eventId,
    timestamp: context.now / 1000,
    platform: 'javascript',
    level: 'error',
    logger: 'tessera-web',
    environment: 'production',
    request: { url: context.url },
    exception: {
      values: [{ type, value, ...(frames.length > 0 ? { stacktrace: { frames } } : {}) }],
    },
    tags: context.tags ?? {},
  }
}

/** The envelope: a header line, an item header line, the event. */
export function envelopeOf(event: ErrorEvent, dsn: Dsn, now: number): string {
  const header = { event_id: event.event_id, sent_at: new Date(now).toISOString(), dsn: dsn.dsn }
  return [JSON.stringify(header), JSON.stringify({ type: 'event' }), JSON.stringify(event)].join(
    '\n',
  )
}

/** At most this many events leave one page load (a loop of errors must not flood the service). */
export const MAX_EVENTS_PER_PAGE = 20

export interface ErrorReporter {
  /** Sends the error; false when the reporter is off or has hit its per-page limit. */
  capture(error: unknown, tags?: Record<string, string>): boolean
}

export function createErrorReporter(options: {
  dsn: string
  send: (url: string, body: string) => Promise<unknown>
  url: () => string
  now?: () => number
  eventId?: () => string
}): ErrorReporter {
  const dsn = parseDsn(options.dsn)
  const now = options.now ?? Date.now
  const eventId = options.eventId ?? (() => crypto.randomUUID().replaceAll('-', ''))
  let sent = 0
  return {
    capture(error, tags) {
      if (dsn === undefined || sent >= MAX_EVENTS_PER_PAGE) return false
      sent += 1
      const time = now()
      const event = errorEvent(error, {
        eventId: eventId(),
        now: time,
        url: options.url(),
        ...(tags === undefined ? {} : { tags }),
      })
      options.send(dsn.envelopeUrl, envelopeOf(event, dsn, time)).catch(() => {
        // The reporting service being down is not the visitor's problem; nothing to report to.
      })
      return true
    },
  }
}

/** A failed code chunk (route module or lazy component): logged to the console (SPEC §8). */
export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason)
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  )
}
