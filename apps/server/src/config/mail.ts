// The e-mail settings (decision 019): an SMTP server from SMTP_URL or SMTP_HOST and its parts, or
// none, when mail goes to the development outbox.
import type { ENV } from './env.ts'
import type { ServerConfig } from './server-config.ts'

type Env = ReturnType<(typeof ENV)['parse']>

/** `MAIL_FROM` unset: a no-reply address on the public URL's host. */
export function defaultMailFrom(publicUrl: string): string {
  return `Tessera <no-reply@${new URL(publicUrl).hostname}>`
}

/** The mail part of the settings. */
export function mailSettings(e: Env, publicUrl: string): ServerConfig['mail'] {
  const smtp: ServerConfig['mail']['smtp'] =
    e.SMTP_URL !== undefined
      ? { url: e.SMTP_URL }
      : e.SMTP_HOST !== undefined
        ? {
            host: e.SMTP_HOST,
            port: e.SMTP_PORT,
            secure: e.SMTP_SECURE,
            user: e.SMTP_USER,
            password: e.SMTP_PASSWORD,
          }
        : undefined
  return {
    smtp,
    from: e.MAIL_FROM ?? defaultMailFrom(publicUrl),
    outboxKeep: e.MAIL_OUTBOX_KEEP,
    operators: e.OPERATOR_EMAILS,
  }
}

/** The start-up line saying where mail goes (never nowhere: decision 019). */
export function mailNote(config: Pick<ServerConfig, 'mail'>): string {
  const { smtp, operators } = config.mail
  if (smtp !== undefined) {
    const where = 'url' in smtp ? new URL(smtp.url).host : `${smtp.host}:${smtp.port}`
    return `mail: SMTP through ${where} from ${config.mail.from}`
  }
  const readers =
    operators.length > 0
      ? `read at /console/outbox by ${operators.join(', ')}`
      : 'set OPERATOR_EMAILS to read it at /console/outbox'
  return `mail: no SMTP server (SMTP_URL or SMTP_HOST unset): mail goes to the development outbox in the database and its links to this log; ${readers}`
}
