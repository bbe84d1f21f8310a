// The contact form's inbox: a message is kept only after the captcha (when one is configured)
// and within the sender's `CONTACT_LIMIT_PER_HOUR` per client address (an IPv6 client by its
// /64), taken atomically in the database so the limit holds across processes and concurrent
// posts. The page's action (apps/web contactus.tsx) shows a refusal beside the form.
import type { ContactMessage, ContactSaved } from '@tessera/web'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { limitAddress, type RateLimiter } from '../platform/rate-limit.ts'
import type { CaptchaGuard } from '../playground/captcha.ts'

const HOUR_MS = 60 * 60_000

export type ContactInbox = ReturnType<typeof createContactInbox>

export function createContactInbox(
  app: Pick<AppContext, 'repo' | 'config'>,
  { limiter, captcha }: { limiter: RateLimiter; captcha: CaptchaGuard },
) {
  const { repo, config } = app

  /** Keeps `message` from `address`, or says why not (captcha, rate limit). */
  async function save(
    message: ContactMessage,
    captchaToken: string | undefined,
    address: string,
  ): Promise<ContactSaved> {
    try {
      await captcha.verify(captchaToken, address)
    } catch (error) {
      if (error instanceof HttpError) {
        return { ok: false, status: error.status, message: error.message }
      }
      throw error
    }
    const decision = await limiter.take([
      {
        key: `contact:address:${limitAddress(address)}`,
        limit: config.contactLimitPerHour,
        windowMs: HOUR_MS,
      },
    ])
    if (!decision.ok) {
      return {
        ok: false,
        status: 429,
        message: `Too many messages from this address: try again in ${Math.ceil(decision.retryAfter / 60)} minutes, or email us.`,
        retryAfter: decision.retryAfter,
      }
    }
    try {
      await repo.saveContactMessage({
        name: message.name,
        email: message.email,
        company: message.company,
        topic: message.topic,
        message: message.message,
      })
    } catch (error) {
      await decision.use.release()
      throw error
    }
    return { ok: true }
  }

  return { save }
}
