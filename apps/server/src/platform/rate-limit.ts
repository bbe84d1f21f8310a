// Limits shared by every server process: uses live in the database (rate_limit_events), so a
// limit holds however many processes answer behind a load balancer. A use is taken atomically
// (db/rate-limit-queries.ts): checked and recorded under the keys' locks, so N requests at once
// never pass more than the limit; a use that turns out not to count is released.
import { isIPv6 } from 'node:net'
import type { RateRule, Repository } from '../db/index.ts'

export type { RateRule } from '../db/index.ts'

/** A recorded use: give it back (a refused or failed attempt), or set what it cost. */
export interface RateUse {
  release(): Promise<void>
  /** Sets what the use costs against the rule keyed `key`, once it is known. */
  reweigh(key: string, weight: number): Promise<void>
}

/** A use taken, or refused by the rule keyed `key` until `retryAfter` seconds from now. */
export type RateDecision =
  | { ok: true; use: RateUse }
  | { ok: false; key: string; retryAfter: number }

export type RateLimiter = ReturnType<typeof createRateLimiter>

type LimitQueries = Pick<
  Repository,
  'takeRateEvents' | 'releaseRateEvents' | 'reweighRateEvents' | 'clearRateEvents'
>

/** The limits over the repository's rate-limit events. */
export function createRateLimiter(repo: LimitQueries) {
  return {
    /** Records a use under every rule when each allows it, else records nothing. */
    async take(rules: readonly RateRule[]): Promise<RateDecision> {
      const taken = await repo.takeRateEvents(rules)
      if (!taken.ok) {
        return { ok: false, key: taken.key, retryAfter: Math.ceil(taken.retryAfterMs / 1000) }
      }
      let released = false
      return {
        ok: true,
        use: {
          release: async () => {
            if (released) return
            released = true
            await repo.releaseRateEvents(taken.ids)
          },
          reweigh: async (key, weight) => {
            const id = taken.idOf[key]
            if (id !== undefined) await repo.reweighRateEvents([id], weight)
          },
        },
      }
    },
    /** Forgets every use of `key`. */
    reset: (key: string) => repo.clearRateEvents(key),
  }
}

/**
 * The part of a client address a limit counts by: an IPv6 client by its /64 (one subscriber's
 * network, whose addresses cost an attacker nothing), an IPv4-mapped address as IPv4, anything
 * else as it is.
 */
export function limitAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!isIPv6(bare)) return address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  if (mapped?.[1] !== undefined) return mapped[1]
  const [head = '', tail = ''] = bare.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === '' ? [] : tail.split(':')
  // An embedded IPv4 tail sits in the low 64 bits: it never changes the /64.
  const groups = bare.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16))
  return `${prefix.join(':')}::/64`
}
