// The mails the server sends (decision 019): each template makes the subject, a plain-text body
// (what the outbox and log show) and a small HTML body with the same words. Features call
// `app.mail.send(template(...))`; links are absolute (`PUBLIC_URL`), tokens appear only in them.
import type { MailMessage } from '../platform/mail.ts'

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  )

/** A mail of paragraphs and at most one action link. */
function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): MailMessage {
  const text = [...paragraphs, ...(action === undefined ? [] : [`${action.label}: ${action.url}`])]
    .join('\n\n')
    .concat('\n\n— Tessera\n')
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action === undefined
      ? []
      : [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`]),
    '<p>— Tessera</p>',
  ].join('\n')
  return { to, subject, text, html }
}

export function invitationMail(input: {
  to: string
  organisationName: string
  invitedBy: string | undefined
  role: string
  acceptUrl: string
  expiresAt: Date
}): MailMessage {
  const who = input.invitedBy === undefined ? 'Someone' : input.invitedBy
  return compose(
    input.to,
    `You are invited to ${input.organisationName} on Tessera`,
    [
      `${who} invited you to join ${input.organisationName} as ${input.role}.`,
      `The invitation is open until ${input.expiresAt.toUTCString()}. Sign in (or sign up) with this address, then accept it.`,
    ],
    { label: 'Accept the invitation', url: input.acceptUrl },
  )
}

export function passwordResetMail(input: {
  to: string
  resetUrl: string
  validMinutes: number
}): MailMessage {
  return compose(
    input.to,
    'Reset your Tessera password',
    [
      'Someone (we hope you) asked to reset the password of the Tessera account of this address.',
      `The link works once, for ${input.validMinutes} minutes. Setting a new password signs out every session of the account.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
    { label: 'Choose a new password', url: input.resetUrl },
  )
}

export function verifyEmailMail(input: {
  to: string
  verifyUrl: string
  validHours: number
  change: boolean
}): MailMessage {
  return compose(
    input.to,
    input.change
      ? 'Confirm your new Tessera e-mail address'
      : 'Confirm your Tessera e-mail address',
    [
      input.change
        ? 'You asked to move your Tessera account to this address. It moves when you open the link.'
        : 'Welcome to Tessera. Confirm that this address is yours.',
      `The link works once, for ${input.validHours} hours.`,
    ],
    { label: 'Confirm the address', url: input.verifyUrl },
  )
}

/** Tells the old address that the account's address or password changed (a takeover warning). */
export function accountChangedMail(input: {
  to: string
  what: 'password' | 'email'
  newEmail?: string
}): MailMessage {
  return compose(
    input.to,
    input.what === 'password' ? 'Your Tessera password changed' : 'Your Tessera e-mail changed',
    [
      input.what === 'password'
        ? 'The password of your Tessera account was changed, and its other sessions were signed out.'
        : `Your Tessera account now uses ${input.newEmail ?? 'another address'}; this address no longer signs in.`,
      'If this was not you, reset your password at once and tell your organisation owner.',
    ],
  )
}

/** An important billing event (a payment, a cancelled subscription), for the billing feature. */
export function billingMail(input: {
  to: string
  subject: string
  lines: string[]
  link?: { label: string; url: string }
}): MailMessage {
  return compose(input.to, input.subject, input.lines, input.link)
}
