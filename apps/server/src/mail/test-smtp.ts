// Test support: a real SMTP server in this process (smtp-server), which the server under test
// sends to (`SMTP_URL`), and the mails it received, decoded enough to read their text and links.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  subject: string
  text: string
  raw: string
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:PORT` for SMTP_URL. */
  url: string
  received: ReceivedMail[]
  /** The first mail to `to` whose subject matches, waiting for it (up to `timeoutMs`). */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>
  stop(): Promise<void>
}

/** The first link of a mail's text that contains `part`. */
export function linkIn(mail: ReceivedMail, part: string): string {
  const link = [...mail.text.matchAll(/https?:\/\/\S+/g)]
    .map((m) => m[0])
    .find((url) => url.includes(part))
  if (link === undefined) throw new Error(`No link with ${part} in: ${mail.text}`)
  return link
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

function decodeWords(header: string): string {
  return header.replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  )
}

function splitPart(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/)
  const head = at < 0 ? raw : raw.slice(0, at)
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '')
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

/** The text/plain body of a message (the first such part of a multipart one). */
function plainText(raw: string): string {
  const { headers, body } = splitPart(raw)
  const type = headers.get('content-type') ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (boundary !== undefined) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      const text = plainText(part.replace(/^\r?\n/, ''))
      if (text !== '') return text
    }
    return ''
  }
  if (!type.startsWith('text/plain')) return ''
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8')
  return body
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = []
  const waiting = new Set<() => void>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const { headers } = splitPart(raw)
        const envelope = session.envelope
        received.push({
          from: envelope.mailFrom === false ? '' : envelope.mailFrom.address,
          to: envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: decodeWords(headers.get('subject') ?? ''),
          text: plainText(raw).replace(/\r\n/g, '\n'),
          raw,
        })
        for (const wake of waiting) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  server.on('error', () => {})
  const { port } = server.server.address() as AddressInfo
  const find = (to: string, subject?: RegExp) =>
    received.find(
      (mail) =>
        mail.to.includes(to.toLowerCase()) && (subject === undefined || subject.test(mail.subject)),
    )
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor(to, subject, timeoutMs = 10_000) {
      const found = find(to, subject)
      if (found !== undefined) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check)
          reject(new Error(`No mail to ${to} (${subject ?? 'any subject'}) within ${timeoutMs} ms`))
        }, timeoutMs)
        const check = () => {
          const mail = find(to, subject)
          if (mail === undefined) return
          clearTimeout(timer)
          waiting.delete(check)
          resolve(mail)
        }
        waiting.add(check)
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
