// The delivery fast lane (issue 14, decision 010): a derived image the normal path has just
// answered from the hot cache is remembered under the request's raw host and target (and the
// request headers its answer varies on), and the next identical request is answered from the
// server's listener before Hono, the app's middleware and the lookups run. Every change the
// lookups hear of (a file, preset, organisation or signing key, here or in another process)
// forgets what it could make stale; an entry lives no longer than a looked-up row would, and is
// answered only while the hot cache still holds its very bytes. Anything unusual (another
// method, a Range, an entry missing or too old) is left to the normal path.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { ByteCache } from '../platform/cache.ts'
import type { Change } from '../platform/changes.ts'
import { ifNoneMatchMatches } from './respond.ts'

/** Request URLs (host and target) remembered at most. */
export const FAST_LANE_MAX_ENTRIES = 10_000
/** Answers kept per URL for the headers it varies on (`Accept` with `f_auto`, DPR hints). */
export const MAX_VARIANTS_PER_URL = 8

/** What the server adds to a fast answer, as the app's middleware does for routed requests. */
export interface FastAnswerHooks {
  /** The request id the answer carries (`x-request-id`), as the app's middleware gives it. */
  requestId: (incoming: IncomingMessage) => string
  /** Counts and logs the answer. */
  answered: (incoming: IncomingMessage, status: number, requestId: string, ms: number) => void
}

/** A derived image answered 200 by the normal path, to remember. */
export interface FastAnswer {
  /** `fastKeyOf` of the request. */
  key: string
  /** Request headers the answer depends on (lower case), from `Vary`. */
  vary: string[]
  /** `variantOf(request headers, vary)`. */
  variant: string
  organisationId: string
  /** The hot cache's key of `data`: the answer is given only while the hot cache holds it. */
  storageKey: string
  data: Buffer
  /** Headers of the 304 (ETag, caching, Vary); the 200 adds type and length. */
  headers: Record<string, string>
  contentType: string
  etag: string
  /** The derived image's row, told of each use (the derived cache evicts least used first). */
  row: { id: string; cacheKey: string }
  /** No later than this (ms since the epoch): a signed URL's expiry, when it has one. */
  until?: number
}

interface Entry {
  organisationId: string
  storageKey: string
  data: Buffer
  /** Headers as node:http's flat list (name, value, …), the request id's pair to append. */
  ok: string[]
  notModified: string[]
  etag: string
  row: { id: string; cacheKey: string }
  until: number
}

interface Slot {
  vary: string[]
  variants: Map<string, Entry>
  organisationId: string
  bytes: number
}

export interface FastLaneOptions {
  /** How long an entry is answered (ms): the lookups' row lifetime. 0 turns the lane off. */
  ttlMs: number
  /** Bytes of answers referenced at most (they are mostly the hot cache's own buffers). */
  maxBytes: number
  maxEntries?: number
  /** The hot cache of derived-image bytes. */
  bytes: Pick<ByteCache, 'get'>
  /** Records a use of a derived image (its budget's least-recently-used order). */
  touch: (row: { id: string; cacheKey: string }) => void
  /** Counts a delivery cache result, as the normal path does. */
  countCache: (result: 'hit' | 'not_modified') => void
  /** Counts the answer in the organisation's usage (bytes of its body), as the normal path does. */
  countUsage?: (organisationId: string, bytes: number) => void
}

export interface FastLane {
  /** Changes seen so far: an answer started before a change is not remembered. */
  readonly generation: number
  /** Remembers `answer` unless a change came after `generation` was read. */
  keep(answer: FastAnswer, generation: number): void
  /** Forgets what `change` can make stale (`undefined`: everything). */
  forget(change: Change | undefined): void
  /**
   * Answers a node:http request before routing when it is a GET or HEAD of a remembered URL;
   * returns false, having written nothing, otherwise.
   */
  answerRaw(incoming: IncomingMessage, outgoing: ServerResponse, hooks: FastAnswerHooks): boolean
  /**
   * The `generation` when a request `answerRaw` left to the normal path arrived: an answer is
   * remembered only if nothing changed since (a custom domain's owner read before delivery
   * starts included).
   */
  arrivedAt(incoming: IncomingMessage): number | undefined
  readonly entries: number
  readonly bytes: number
  /** Requests answered here so far. */
  readonly answered: number
}

/** Headers as node:http's flat list of names and values. */
function flat(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat()
}

/** The key of a request: its Host header and its target exactly as sent. */
export function fastKeyOf(host: string | undefined, target: string | undefined) {
  return host === undefined || target === undefined ? undefined : `${host}\n${target}`
}

/** The values of the request headers an answer varies on, as one string. */
export function variantOf(headers: IncomingHttpHeaders, vary: readonly string[]): string {
  let variant = ''
  for (const name of vary) {
    const value = headers[name]
    variant += `${typeof value === 'string' ? value : ''}\n`
  }
  return variant
}

/** Creates the fast lane; with `ttlMs` or `maxBytes` 0 it remembers nothing. */
export function createFastLane(options: FastLaneOptions): FastLane {
  const maxEntries = options.maxEntries ?? FAST_LANE_MAX_ENTRIES
  const enabled = options.ttlMs > 0 && options.maxBytes > 0 && maxEntries > 0
  const slots = new Map<string, Slot>()
  let total = 0
  let generation = 0
  let answered = 0
  const arrivals = new WeakMap<IncomingMessage, number>()

  const remove = (key: string) => {
    const slot = slots.get(key)
    if (slot === undefined) return
    slots.delete(key)
    total -= slot.bytes
  }

  const dropVariant = (key: string, slot: Slot, variant: string) => {
    const entry = slot.variants.get(variant)
    if (entry === undefined) return
    slot.variants.delete(variant)
    slot.bytes -= entry.data.length
    total -= entry.data.length
    if (slot.variants.size === 0) slots.delete(key)
  }

  /** Answers from a remembered entry; false, having written nothing, otherwise. */
  const answer = (
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    hooks: FastAnswerHooks,
  ): boolean => {
    if (slots.size === 0) return false
    const method = incoming.method
    if (method !== 'GET' && method !== 'HEAD') return false
    const key = fastKeyOf(incoming.headers.host, incoming.url)
    if (key === undefined) return false
    const slot = slots.get(key)
    if (slot === undefined) return false
    const started = performance.now()
    const headers = incoming.headers
    // Ranges are the normal path's (it decides what a range of a derived image means).
    if (headers.range !== undefined) return false
    const variant = slot.vary.length === 0 ? '' : variantOf(headers, slot.vary)
    const entry = slot.variants.get(variant)
    if (entry === undefined) return false
    if (entry.until <= Date.now() || options.bytes.get(entry.storageKey) !== entry.data) {
      dropVariant(key, slot, variant)
      return false
    }
    slots.delete(key)
    slots.set(key, slot)
    const ifNoneMatch = headers['if-none-match']
    const status =
      ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, entry.etag) ? 304 : 200
    const requestId = hooks.requestId(incoming)
    outgoing.writeHead(status, [
      ...(status === 304 ? entry.notModified : entry.ok),
      'x-request-id',
      requestId,
    ])
    if (status === 304 || method === 'HEAD') outgoing.end()
    else outgoing.end(entry.data)
    answered++
    options.countCache(status === 304 ? 'not_modified' : 'hit')
    options.countUsage?.(
      entry.organisationId,
      status === 304 || method === 'HEAD' ? 0 : entry.data.length,
    )
    options.touch(entry.row)
    hooks.answered(incoming, status, requestId, performance.now() - started)
    return true
  }

  return {
    get generation() {
      return generation
    },
    keep(answer, seen) {
      if (!enabled || seen !== generation) return
      if (answer.data.length > options.maxBytes) return
      // Only an answer the hot cache holds: its bytes are bounded there.
      if (options.bytes.get(answer.storageKey) !== answer.data) return
      let slot = slots.get(answer.key)
      // A URL now answered for another organisation or varying otherwise starts afresh.
      if (
        slot !== undefined &&
        (slot.organisationId !== answer.organisationId || slot.vary.join() !== answer.vary.join())
      ) {
        remove(answer.key)
        slot = undefined
      }
      const kept: Slot = slot ?? {
        vary: answer.vary,
        variants: new Map(),
        organisationId: answer.organisationId,
        bytes: 0,
      }
      const unkeep = (variant: string) => {
        const old = kept.variants.get(variant)
        if (old === undefined) return
        kept.variants.delete(variant)
        kept.bytes -= old.data.length
        total -= old.data.length
      }
      unkeep(answer.variant)
      while (kept.variants.size >= MAX_VARIANTS_PER_URL) {
        const oldest = kept.variants.keys().next()
        if (oldest.done === true) break
        unkeep(oldest.value)
      }
      // Most recently used last.
      slots.delete(answer.key)
      slots.set(answer.key, kept)
      const ttlUntil = Date.now() + options.ttlMs
      kept.variants.set(answer.variant, {
        organisationId: answer.organisationId,
        storageKey: answer.storageKey,
        data: answer.data,
        notModified: flat(answer.headers),
        ok: flat({
          ...answer.headers,
          'content-type': answer.contentType,
          'content-length': String(answer.data.length),
        }),
        etag: answer.etag,
        row: answer.row,
        until: answer.until === undefined ? ttlUntil : Math.min(ttlUntil, answer.until),
      })
      kept.bytes += answer.data.length
      total += answer.data.length
      while (total > options.maxBytes || slots.size > maxEntries) {
        const oldest = slots.keys().next()
        if (oldest.done === true) break
        remove(oldest.value)
      }
    },
    forget(change) {
      // Sessions and users decide nothing a delivery answer holds.
      if (change?.kind === 'session' || change?.kind === 'user') return
      generation++
      // Files and presets touch their organisation only (a merge reads files of the same
      // organisation); an organisation's change may move a custom domain to another, and a
      // signing key's may end what a signature allowed: everything goes.
      if (
        change === undefined ||
        change.kind === 'organisation' ||
        change.kind === 'signing-keys'
      ) {
        slots.clear()
        total = 0
        return
      }
      for (const [key, slot] of slots) {
        if (slot.organisationId === change.organisationId) remove(key)
      }
    },
    answerRaw(incoming, outgoing, hooks) {
      if (answer(incoming, outgoing, hooks)) return true
      if (enabled) arrivals.set(incoming, generation)
      return false
    },
    arrivedAt(incoming) {
      return arrivals.get(incoming)
    },
    get entries() {
      let count = 0
      for (const slot of slots.values()) count += slot.variants.size
      return count
    },
    get bytes() {
      return total
    },
    get answered() {
      return answered
    },
  }
}
