// Cross-process truth: a change made through one process (a file overwritten, a preset edited, an
// organisation's settings or signing keys changed) is told to every other process on the same
// PostgreSQL database with NOTIFY, so none keeps serving what it had cached. With the embedded
// PGlite there is one process, and a change only has to reach this one.
//
// A change answers only when every other listening process has applied it: each process says
// it is there (a `hello` every PRESENCE_MS, a `bye` when it closes), acknowledges each change
// once applied, and the process that made the change waits for the acknowledgements of every
// process it has heard from lately (and for its own notification, which proves the database took
// it), at most ECHO_TIMEOUT_MS. PostgreSQL hands a notification to each listening connection on
// its own schedule; without the acknowledgements a busy machine could answer a write before
// another process had read of it.
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

/**
 * How long a change waits for its own notification and the other processes' acknowledgements
 * before it answers anyway (a process killed with -9 acknowledges nothing).
 */
export const ECHO_TIMEOUT_MS = 2000

/** How often a process says it is listening. */
export const PRESENCE_MS = 2000

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
  /** How many other processes this one has heard from lately (and so waits for). */
  peers(): number
  close(): Promise<void>
}

export interface ChangeFeedOptions {
  /** PostgreSQL URL; without it the feed only reaches this process. */
  url: string | undefined
  logger: Logger
  /**
   * Forgets what a change makes stale. The change is acknowledged to the process that made it
   * when this returns (or its promise settles).
   */
  apply(change: Change): void | Promise<void>
  /** Forgets everything: notifications may have been missed while the connection was down. */
  applyAll(): void
  /** Delay before reconnecting the listening connection (ms, default 500). */
  retryMs?: number
  /** How often this process says it is listening (ms, default PRESENCE_MS). */
  presenceMs?: number
}

/** What goes through the channel. */
type Message =
  | { origin: string; id: string; change?: unknown }
  | { origin: string; ack: string; to: string }
  | { origin: string; hello: true }
  | { origin: string; bye: true }

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
      peers: () => 0,
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

  // Processes heard from (their origin → when; one not heard from for three presence periods is
  // no longer waited for), and what each waiting change still needs.
  const presenceMs = options.presenceMs ?? PRESENCE_MS
  const peerTtlMs = 3 * presenceMs
  const peers = new Map<string, number>()
  const pending = new Map<string, Set<string>>()
  const livePeers = (): string[] => {
    const now = Date.now()
    const live: string[] = []
    for (const [peer, seen] of peers) {
      if (now - seen <= peerTtlMs) live.push(peer)
      else peers.delete(peer)
    }
    return live
  }
  /** Marks one thing a change waited for (its echo: the origin itself) as come. */
  const arrived = (id: string, from: string) => {
    const needs = pending.get(id)
    if (needs === undefined) return
    needs.delete(from)
    if (needs.size === 0) waiting.get(id)?.()
  }
  const acknowledge = (id: string, to: string) => {
    notify(JSON.stringify({ origin, ack: id, to } satisfies Message)).catch((error: unknown) => {
      logger.debug({ err: error }, 'could not acknowledge a change')
    })
  }

  const onNotification = (notification: pg.Notification) => {
    if (notification.channel !== CHANGES_CHANNEL || notification.payload === undefined) return
    let message: Partial<Record<string, unknown>>
    try {
      message = JSON.parse(notification.payload)
    } catch {
      logger.warn({ payload: notification.payload.slice(0, 200) }, 'unreadable change notification')
      return
    }
    const from = message.origin
    if (typeof from !== 'string') return
    if (from !== origin) {
      if (message.bye === true) {
        peers.delete(from)
        // Whatever waited for it stops waiting.
        for (const id of [...pending.keys()]) arrived(id, from)
        return
      }
      peers.set(from, Date.now())
    }
    if (message.hello === true) return
    if (typeof message.ack === 'string') {
      if (message.to === origin) arrived(message.ack, from)
      return
    }
    if (typeof message.id !== 'string') return
    if (from === origin) {
      arrived(message.id, origin)
      return
    }
    const id = message.id
    const change = message.change
    // Runs at once up to the apply's first await; acknowledged when it is done, failed or not.
    const applied = (async () => {
      if (isChange(change)) await options.apply(change)
      else options.applyAll()
    })()
    applied
      .catch((error: unknown) => logger.error({ err: error }, 'could not apply a change'))
      .finally(() => acknowledge(id, from))
  }

  const hello = () => {
    if (connected) {
      notify(JSON.stringify({ origin, hello: true } satisfies Message)).catch((error: unknown) => {
        logger.debug({ err: error }, 'could not say this process is listening')
      })
    }
  }
  const presence = setInterval(hello, presenceMs)
  presence.unref()

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
    hello()
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
      await options.apply(change)
      const id = randomUUID()
      const payload = JSON.stringify({ origin, id, change } satisfies Message)
      // Its own echo and every process heard from lately.
      pending.set(id, new Set([origin, ...livePeers()]))
      const echoed = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          waiting.delete(id)
          pending.delete(id)
          resolve()
        }
        const timer = setTimeout(() => {
          const missing = [...(pending.get(id) ?? [])]
          if (missing.length > 0) {
            logger.warn({ change, missing }, 'a change was not acknowledged in time')
          }
          done()
        }, ECHO_TIMEOUT_MS)
        waiting.set(id, done)
      })
      try {
        // Too long to say what changed: tell everyone to forget everything.
        await notify(payload.length > MAX_PAYLOAD ? JSON.stringify({ origin, id }) : payload)
      } catch (error) {
        waiting.get(id)?.()
        logger.warn({ err: error, change }, 'could not tell the other processes about a change')
        return
      }
      // Without a listening connection nothing can come back; do not wait for it.
      if (!connected) waiting.get(id)?.()
      await echoed
    },
    listening: () => connected,
    peers: () => livePeers().length,
    async close() {
      if (connected && !closed) {
        // The others stop waiting for this process's acknowledgements at once.
        await notify(JSON.stringify({ origin, bye: true } satisfies Message)).catch(() => undefined)
      }
      closed = true
      clearTimeout(retry)
      clearInterval(presence)
      for (const release of [...waiting.values()]) release()
      const clients = [listener, sender]
      listener = undefined
      sender = undefined
      await Promise.all(clients.map((client) => client?.end().catch(() => undefined)))
    },
  }
}
