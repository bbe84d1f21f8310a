// The captcha of the visitor calls (uploads and AI runs), on when the runtime configuration has
// a captcha site key: Cloudflare Turnstile's widget API (`turnstile.render`, `reset`, callbacks),
// loaded from `scripts.captcha`. Each token is good for one call: the server checks it once, so
// the widget is reset after a token is taken and a fresh one comes for the next call.

/** The part of Turnstile's browser API the adapter uses. */
export interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string
      /** Told back to the server with the token, which may require it (the contact form). */
      action?: string
      callback: (token: string) => void
      'error-callback'?: (code?: unknown) => void
      'expired-callback'?: () => void
      theme?: 'auto' | 'light' | 'dark'
      size?: 'normal' | 'flexible' | 'compact'
    },
  ): string | undefined
  reset(widgetId?: string): void
  remove?(widgetId: string): void
}

/** A token the widget did not give (refused, expired, or the widget failed). */
export class CaptchaError extends Error {
  readonly code = 'captcha_failed'
  readonly status = 0
  constructor(message: string) {
    super(message)
    this.name = 'CaptchaError'
  }
}

/** How long a call waits for the visitor to pass the widget. */
export const CAPTCHA_WAIT_MS = 120_000

/**
 * Token bookkeeping between the widget's callbacks and the calls that need a token: a token is
 * used once; a call that finds none waits for the next one.
 */
export function createTokenQueue(reset: () => void, waitMs = CAPTCHA_WAIT_MS) {
  let current: string | undefined
  let waiters: { resolve: (token: string) => void; reject: (error: Error) => void }[] = []
  return {
    /** The widget produced a token. */
    put(token: string) {
      const waiter = waiters.shift()
      if (waiter !== undefined) {
        waiter.resolve(token)
        reset()
      } else current = token
    },
    /** The token expired or the widget failed: nobody may use the old one. */
    drop() {
      current = undefined
    },
    /** Fails every waiting call (the widget could not load or run). */
    fail(message: string) {
      current = undefined
      const failed = waiters
      waiters = []
      for (const waiter of failed) waiter.reject(new CaptchaError(message))
    },
    /** A token for one call; the widget is reset so the next call gets a new one. */
    take(): Promise<string> {
      if (current !== undefined) {
        const token = current
        current = undefined
        reset()
        return Promise.resolve(token)
      }
      return new Promise<string>((resolve, reject) => {
        const waiter = {
          resolve: (token: string) => {
            clearTimeout(timer)
            resolve(token)
          },
          reject: (error: Error) => {
            clearTimeout(timer)
            reject(error)
          },
        }
        const timer = setTimeout(() => {
          waiters = waiters.filter((entry) => entry !== waiter)
          reject(new CaptchaError('Complete the captcha to continue'))
        }, waitMs)
        waiters.push(waiter)
      })
    },
    get waiting() {
      return waiters.length
    },
  }
}
