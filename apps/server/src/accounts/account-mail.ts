// The mails of accounts (decision 019): where their links point, sending after the answer (a
// failure is logged, never shown), and the e-mail verification link (sign-up, a new address).
import type { AppContext } from '../context.ts'
import type { User } from '../db/index.ts'
import { verifyEmailMail } from '../mail/templates.ts'
import type { Logger } from '../platform/logger.ts'
import type { MailMessage } from '../platform/mail.ts'
import { randomToken, sha256 } from './auth.ts'

/** A verification link works once, for this long. */
export const VERIFY_TTL_MS = 24 * 60 * 60_000

export type AccountMail = ReturnType<typeof createAccountMail>

export function createAccountMail(app: Pick<AppContext, 'repo' | 'config' | 'mail'>) {
  const { repo, config, mail } = app
  const base = config.web.consoleUrl
  /** The console's absolute address: links in mail must work from a mail client. */
  const consoleUrl = /^https?:\/\//.test(base) ? base : `${config.publicUrl}${base}`

  /** Sends without holding the answer; a failure (SMTP down) is logged. */
  const sendLater = (log: Logger, message: MailMessage, what: string) => {
    void mail.send(message).catch((error: unknown) => {
      log.error({ err: error, to: message.to, what }, 'mail could not be sent')
    })
  }

  /** Mails a link proving `email` is the user's (their own, or the one they move to). */
  const sendVerification = async (log: Logger, user: User, email: string) => {
    const token = randomToken()
    await repo.createAccountToken({
      userId: user.id,
      kind: 'verify_email',
      tokenHash: sha256(token),
      email,
      expiresAt: new Date(Date.now() + VERIFY_TTL_MS),
    })
    sendLater(
      log,
      verifyEmailMail({
        to: email,
        verifyUrl: `${consoleUrl}/auth/verify-email?token=${token}`,
        validHours: VERIFY_TTL_MS / 3_600_000,
        change: email !== user.email,
      }),
      'verify_email',
    )
  }

  return { consoleUrl, sendLater, sendVerification }
}
