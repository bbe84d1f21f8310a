// One run of a delivery URL for display, shared by the playground and the AI tool pages: an AI
// run is signed first (a member's by its organisation's key, a visitor's by the visitor call
// with its captcha and daily allowance; a server without visitor signing gets the plain URL),
// then fetched by the rules of lib/image-fetch.ts, with the app events of every step.
import { useConfig, useSession } from '../lib/app-context.tsx'
import { APP_EVENTS, trackAppEvent } from '../lib/app-events.ts'
import {
  DAILY_LIMIT_CODE,
  describeFailure,
  signAsMember,
  signAsVisitor,
} from '../lib/playground-api.ts'
import type { Captcha } from './captcha.tsx'
import { type FetchHooks, useFetchedImage } from './use-fetched-image.ts'

type EventTags = Record<string, string | number>

export interface DeliveryRunOptions {
  /** What every event carries to say where it happened: `{ where: 'playground' }`, `{ tool }`. */
  tags: EventTags
  /** Whether the URL runs an AI operation, so that it is signed before it is fetched. */
  signed: boolean
  /** The organisation whose key signs the run; undefined: the visitor call signs it. */
  memberOrgId: string | undefined
  captcha: Captcha
  /** Whether a daily-limit refusal from delivery is the visitor's allowance running out. */
  limitApplies: boolean
  /** More to tell with "transformation triggered" (the playground's chain pattern). */
  startTags?: () => EventTags
  /** The visitor's daily allowance is spent: the message to show. */
  onDailyLimit?: (message: string) => void
  onReady?: FetchHooks['onReady']
}

/** Fetches `url` (null: nothing to show) as a signed, tracked run; see useFetchedImage. */
export function useDeliveryRun(url: string | null, options: DeliveryRunOptions) {
  const config = useConfig()
  const { client } = useSession()
  const { tags } = options
  const dailyLimit = (message: string) => {
    trackAppEvent(APP_EVENTS.dailyLimitExceeded, tags)
    options.onDailyLimit?.(message)
  }
  return useFetchedImage(url, {
    prepare: async (target) => {
      if (!options.signed) return target
      // A member's organisation may have strict transformations on: its own key signs the run.
      if (options.memberOrgId !== undefined)
        return signAsMember(client, config, options.memberOrgId, target)
      try {
        return (await signAsVisitor(config, target, await options.captcha.token())).url
      } catch (error) {
        const failure = describeFailure(error)
        // A server without visitor signing (404): the plain URL is used.
        if (failure.status === 404) return target
        if (failure.code === DAILY_LIMIT_CODE) dailyLimit(failure.message)
        if (failure.code.startsWith('captcha')) trackAppEvent(APP_EVENTS.captchaFailed, tags)
        throw error
      }
    },
    onStart: () =>
      trackAppEvent(APP_EVENTS.transformationTriggered, { ...tags, ...options.startTags?.() }),
    onReady: (ready) => {
      trackAppEvent(APP_EVENTS.success, tags)
      if (ready.retries > 0) {
        trackAppEvent(APP_EVENTS.pollingSucceeded, { ...tags, retries: ready.retries })
      }
      options.onReady?.(ready)
    },
    onFailed: (failure) => {
      trackAppEvent(APP_EVENTS.failed, { ...tags, status: failure.status_code })
      if (failure.wasProcessing) {
        trackAppEvent(APP_EVENTS.pollingFailed, { ...tags, code: failure.code })
      }
      // Delivery refuses a visitor's new AI render past the daily allowance.
      if (failure.code === DAILY_LIMIT_CODE && options.limitApplies) dailyLimit(failure.message)
    },
  })
}
