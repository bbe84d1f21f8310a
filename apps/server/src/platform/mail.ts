// The mail transport (decision 019): SMTP through nodemailer when a server is configured; with
// none, the development outbox — the mail is kept in the database (the newest
// `MAIL_OUTBOX_KEEP`) for the operator's console page, and its links go to the log. Mail is never
// dropped without a trace.
import type { Transporter } from 'nodemailer'
import type { ServerConfig } from '../config.ts'
import type { NewOutboxMail, OutboxMail, Repository } from '../db/index.ts'
import type { Logger } from './logger.ts'

export interface MailMessage {
  /** One address, already checked. */
  to: string
  subject: string
  text: string
  html?: string
}

export interface Mailer {
  /** `smtp` when mail leaves through an SMTP server, `outbox` for the development outbox. */
  readonly mode: 'smtp' | 'outbox'
  /** Sends (or, with no SMTP server, keeps) one mail; a failed SMTP delivery throws. */
  send(message: MailMessage): Promise<void>
  /** The outbox's newest mails (empty when mail goes through SMTP and nothing was kept). */
  outbox(limit: number): Promise<OutboxMail[]>
  close(): void
}

/** The links of a text: what the log line of an outbox mail shows. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((match) => match[0])
}

// nodemailer (~1.8 MB of V8's heap) is loaded when the first mail leaves, by servers that have
// an SMTP server configured only.
async function transportOf(smtp: NonNullable<ServerConfig['mail']['smtp']>): Promise<Transporter> {
  const { createTransport } = await import('nodemailer')
  if ('url' in smtp) return createTransport(smtp.url)
  return createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user === undefined ? {} : { auth: { user: smtp.user, pass: smtp.password ?? '' } }),
  })
}

export function createMailer(app: {
  config: Pick<ServerConfig, 'mail'>
  repo: Pick<Repository, 'addOutboxMail' | 'listOutboxMail'>
  logger: Logger
}): Mailer {
  const { mail } = app.config
  const smtp = mail.smtp
  // Made with the first mail; one that could not be made is tried again by the next.
  let transport: Promise<Transporter> | undefined
  return {
    mode: smtp === undefined ? 'outbox' : 'smtp',
    async send(message) {
      if (smtp !== undefined) {
        transport ??= transportOf(smtp).catch((error: unknown) => {
          transport = undefined
          throw error
        })
        const info = await (await transport).sendMail({
          from: mail.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
        })
        app.logger.info({ to: message.to, messageId: info.messageId }, 'mail sent')
        return
      }
      const kept: NewOutboxMail = {
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
      }
      const row = await app.repo.addOutboxMail(kept, mail.outboxKeep)
      app.logger.info(
        {
          to: message.to,
          subject: message.subject,
          links: linksOf(message.text),
          outboxId: row.id,
        },
        'mail kept in the development outbox (no SMTP server configured)',
      )
    },
    outbox: (limit) => app.repo.listOutboxMail(limit),
    close() {
      void transport?.then(
        (opened) => opened.close(),
        () => undefined,
      )
    },
  }
}
