// The mail transport (decision 019) over a real database and a real SMTP server in this process:
// with no SMTP server the mail is kept in the outbox and its links are logged; with one, the
// message arrives as sent; a server that cannot be reached makes `send` fail (its callers log it).
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, mailNote } from '../config.ts'
import { useTestRepository } from '../db/repository-suite.ts'
import { createMailer, linksOf } from '../platform/mail.ts'
import { defaultTestDatabase } from '../test-server.ts'
import { startTestSmtp, type TestSmtp } from './test-smtp.ts'

/** A logger whose JSON lines are kept. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>)
      done()
    },
  })
  return { logger: pino({ level: 'info' }, stream), lines }
}

const mailSettings = (smtp: { url: string } | undefined) => ({
  mail: { smtp, from: 'Tessera <mail@test.example>', outboxKeep: 2, operators: [] },
})

describe('the mail transport', () => {
  const suite = useTestRepository(defaultTestDatabase())
  let smtp: TestSmtp

  beforeAll(async () => {
    smtp = await startTestSmtp()
  }, 60_000)
  afterAll(async () => {
    await smtp?.stop()
  })

  it('finds the links of a text', () => {
    expect(linksOf('Open https://a.example/x?token=1 or http://b.example.')).toEqual([
      'https://a.example/x?token=1',
      'http://b.example.',
    ])
  })

  it('keeps mail in the outbox and logs its links when no SMTP server is set', async () => {
    const { logger, lines } = capturingLogger()
    const mailer = createMailer({ config: mailSettings(undefined), repo: suite.repo, logger })
    expect(mailer.mode).toBe('outbox')
    const to = `outbox.${Date.now().toString(36)}@example.com`
    await mailer.send({ to, subject: 'Hello', text: 'Open https://x.example/reset?token=abc' })
    const [kept] = await mailer.outbox(1)
    expect(kept).toMatchObject({ to, subject: 'Hello' })
    const line = lines.find((entry) => entry.to === to)
    expect(line?.links).toEqual(['https://x.example/reset?token=abc'])
    expect(String(line?.msg)).toContain('development outbox')
  })

  it('sends through SMTP when a server is set, and fails when it cannot be reached', async () => {
    const { logger } = capturingLogger()
    const mailer = createMailer({
      config: mailSettings({ url: smtp.url }),
      repo: suite.repo,
      logger,
    })
    expect(mailer.mode).toBe('smtp')
    const to = `smtp.${Date.now().toString(36)}@example.com`
    await mailer.send({
      to,
      subject: 'Grüße',
      text: 'Héllo https://x.example/a',
      html: '<p>Héllo</p>',
    })
    const received = await smtp.waitFor(to)
    expect(received.subject).toBe('Grüße')
    expect(received.from).toBe('mail@test.example')
    expect(received.text).toContain('Héllo https://x.example/a')
    mailer.close()

    const down = createMailer({
      config: mailSettings({ url: 'smtp://127.0.0.1:1' }),
      repo: suite.repo,
      logger,
    })
    await expect(down.send({ to, subject: 'x', text: 'y' })).rejects.toThrow()
    down.close()
  })
})

describe('the mail settings', () => {
  it('say at start where mail goes, never printing a password', () => {
    const outbox = loadConfig({ OPERATOR_EMAILS: 'Ops@Example.com' })
    expect(outbox.mail.smtp).toBeUndefined()
    expect(outbox.mail.from).toBe('Tessera <no-reply@localhost>')
    expect(mailNote(outbox)).toMatch(/development outbox.*ops@example\.com/)
    const url = loadConfig({
      SMTP_URL: 'smtps://me:secret@smtp.example.com:465',
      MAIL_FROM: 'A <a@b.c>',
    })
    expect(url.mail.smtp).toEqual({ url: 'smtps://me:secret@smtp.example.com:465' })
    expect(mailNote(url)).toBe('mail: SMTP through smtp.example.com:465 from A <a@b.c>')
    const parts = loadConfig({ SMTP_HOST: 'mx.example.com', SMTP_USER: 'u', SMTP_PASSWORD: 'p' })
    expect(parts.mail.smtp).toEqual({
      host: 'mx.example.com',
      port: 587,
      secure: false,
      user: 'u',
      password: 'p',
    })
    expect(mailNote(parts)).not.toContain('p@')
    expect(() => loadConfig({ SMTP_URL: 'http://nope' })).toThrow(/SMTP_URL/)
  })
})
