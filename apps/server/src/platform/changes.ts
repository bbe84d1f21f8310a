// Cross-process truth: a change made through one process (a file overwritten, a preset edited, an
// organisation's settings or signing keys changed) is told to every other process on the same
// PostgreSQL database with NOTIFY, so none keeps serving what it had cached. With the embedded
// PGlite there is one process, and a change only has to reach this one.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { Logger } from './logger.ts'

/** What changed; each process forgets what it cached about it. */
export type Change =
  | { kind: 'file'; organisationId: string; path: string }
  | { kind: 'preset'; organisationId: string; name: string }
  | { kind: 'organisation'; id: string; cloudName: string }
  | { kind: 'signing-keys' }
  /** A session ended (its id is the sha256 of its token): the session cache forgets it. */
  | { kind: 'session'; id: string }
  /** A user's row changed: the session cache forgets the user's sessions. */
  | { kind: 'user'; id: string }

export const CHANGES_CHANNEL = 'tessera_changes'

/** How long a change waits for its own notification to come back before it answers anyway. */
export const ECHO_TIMEOUT_MS = 2000

/** A notification's payload may hold at most 8000 bytes; paths are far shorter. */
const MAX_PAYLOAD = 7900

export interface ChangeFeed {
  /**
   * Applies `change` here at once, then tells the other processes, resolving when the
   * notification has gone round (so an answer sent after it is never contradicted by another
   * process's cache). Never throws: a database that cannot notify is logged, and the other
   * processes forget everything when their listening connection comes back.
   */
  publish(change: Change): Promise<void>
  /** Whether the listening connection is up (always true without PostgreSQL). */
  listening(): boolean
  close(): Promise<void>
}

export interface ChangeFeedOptions {
  /** PostgreSQL URL; without it the feed only reaches this process. */
  url: string | undefined
  logger: Logger
  /** Forgets what a change makes stale. */
  apply(change: Change): void
  /** Forgets everything: notifications may have been missed while the connection was down. */
  applyAll(): void
  /** Delay before reconnecting the listening connection (ms, default 500). */
  retryMs?: number
}

function isChange(value: unknown): value is Change {
  if (typeof value !== 'object' || value === null) return false
  const change = value as Record<string, unknown>
  switch (change.kind) {
    case 'file':
      return typeof change.organisationId === 'string' && typeof change.path === 'string'
    case 'preset':
      return typeof change.organisationId === 'string' && typeof change.name === 'string'
    case 'organisation':
      return typeof change.id === 'string' && typeof change.cloudName === 'string'
    case 'signing-keys':
      return true
    case 'session':
    case 'user':
      return typeof change.id === 'string'
    default:
      return false
  }
}

/** Starts listening (on PostgreSQL) and answers the feed; `close` stops it. */
export async function createChangeFeed(options: ChangeFeedOptions): Promise<ChangeFeed> {
  const { url, logger } = options
  if (url === undefined) {
    return {
      publish: async (change) => options.apply(change),
      listening: () => true,
      close: async () => undefined,
    }
  }
  const origin = randomUUID()
  const retryMs = options.retryMs ?? 500
  const waiting = new Map<string, () => void>()
  let listener: pg.Client | undefined
  let connected = false
  let everConnected = false
  let closed = false
  let retry: NodeJS.Timeout | undefined
  // Notifications are sent on a connection of their own, so a busy pool never delays them.
  let sender: pg.Client | undefined
  let sending: Promise<pg.Client> | undefined
  // One query at a time on the sending connection (pg does not queue them for us any more).
  let queue: Promise<unknown> = Promise.resolve()
  const notify = (payload: string): Promise<unknown> => {
    const sent = queue.then(async () =>
      (await senderClient()).query('select pg_notify($1, $2)', [CHANGES_CHANNEL, payload]),
    )
    queue = sent.catch(() => undefined)
    return sent
  }

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CHANGES_CHANNEL || message.payload === undefined) return
    let parsed: { origin?: unknown; id?: unknown; change?: unknown }
    try {
      parsed = JSON.parse(message.payload)
    } catch {
      logger.warn({ payload: message.payload.slice(0, 200) }, 'unreadable change notification')
      return
    }
    if (parsed.origin === origin) {
      if (typeof parsed.id === 'string') waiting.get(parsed.id)?.()
      return
    }
    if (isChange(parsed.change)) options.apply(parsed.change)
    else options.applyAll()
  }

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
    client.on('error', (error) => {
      logger.warn({ err: error }, 'change feed connection lost')
      lost(client)
    })
    client.on('end', () => lost(client))
    client.on('notification', onNotification)
    await client.connect()
    await client.query(`listen ${CHANGES_CHANNEL}`)
    if (closed) {
      await client.end().catch(() => undefined)
      return
    }
    listener = client
    const reconnected = everConnected
    connected = true
    everConnected = true
    retry = undefined
    // Changes made while this process was not listening were missed: forget everything.
    if (reconnected) {
      options.applyAll()
      logger.info('change feed listening again')
    }
  }

  function lost(client: pg.Client): void {
    if (listener !== client) return
    listener = undefined
    connected = false
    client.end().catch(() => undefined)
    // Cached rows can no longer be trusted to be told about: forget them now and after.
    options.applyAll()
    schedule()
  }

  function schedule(): void {
    if (closed || retry !== undefined) return
    retry = setTimeout(() => {
      connect().catch((error: unknown) => {
        logger.debug({ err: error }, 'change feed could not reconnect')
        retry = undefined
        schedule()
      })
    }, retryMs)
  }

  async function senderClient(): Promise<pg.Client> {
    if (sender !== undefined) return sender
    sending ??= (async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
      const drop = () => {
        if (sender === client) sender = undefined
        client.end().catch(() => undefined)
      }
      client.on('error', drop)
      client.on('end', drop)
      try {
        await client.connect()
      } catch (error) {
        await client.end().catch(() => undefined)
        throw error
      }
      sender = client
      return client
    })().finally(() => {
      sending = undefined
    })
    return sending
  }

  await connect()

  return {
    async publish(change) {
      options.apply(change)
      const id = randomUUID()
      const payload = JSON.stringify({ origin, id, change })
      const echoed = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id)
          resolve()
        }, ECHO_TIMEOUT_MS)
        waiting.set(id, () => {
          clearTimeout(timer)
          waiting.delete(id)
          resolve()
        })
      })
      try {
        // Too long to say what changed: tell everyone to forget everything.
        await notify(payload.length > MAX_PAYLOAD ? JSON.stringify({ origin, id }) : payload)
      } catch (error) {
        waiting.get(id)?.()
        logger.warn({ err: error, change }, 'could not tell the other processes about a change')
        return
      }
      // Without a listening connection the echo cannot come back; do not wait for it.
      if (!connected) waiting.get(id)?.()
      await echoed
    },
    listening: () => connected,
    async close() {
      closed = true
      clearTimeout(retry)
      for (const release of [...waiting.values()]) release()
      const clients = [listener, sender]
      listener = undefined
      sender = undefined
      await Promise.all(clients.map((client) => client?.end().catch(() => undefined)))
    },
  }
}
