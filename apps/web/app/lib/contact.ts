// The contact form's rules, shared by the page (messages beside fields) and the action.

export const CONTACT_TOPICS = {
  sales: 'Sales and pricing',
  demo: 'Book a demo',
  support: 'Support ticket',
  affiliate: 'Become an affiliate',
  other: 'Something else',
} as const

export type ContactTopic = keyof typeof CONTACT_TOPICS

/** A message as stored. */
export interface ContactMessage {
  name: string
  email: string
  company: string
  topic: ContactTopic
  message: string
}

/** Problems with the form: a field's, or the whole message's (`form`: captcha, rate limit). */
export type ContactErrors = Partial<Record<keyof ContactMessage | 'form', string>>

/** What the server answers a message: kept, or refused with an HTTP status and why. */
export type ContactSaved =
  | { ok: true }
  | { ok: false; status: number; message: string; retryAfter?: number }

/** The field the captcha widget (Turnstile) adds to the form it is rendered in. */
export const CAPTCHA_FIELD = 'cf-turnstile-response'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === 'string' ? value.trim() : ''
}

/** Reads and checks the form: the message, or the problem with each field. */
export function parseContact(
  form: FormData,
): { ok: true; value: ContactMessage } | { ok: false; errors: ContactErrors } {
  const name = field(form, 'name')
  const email = field(form, 'email')
  const company = field(form, 'company')
  const topic = field(form, 'topic')
  const message = field(form, 'message')
  const errors: ContactErrors = {}
  if (name === '') errors.name = 'Enter your name.'
  else if (name.length > 100) errors.name = 'Use at most 100 characters.'
  if (email === '') errors.email = 'Enter your email address.'
  else if (email.length > 254 || !EMAIL.test(email)) errors.email = 'Enter a valid email address.'
  if (company.length > 100) errors.company = 'Use at most 100 characters.'
  if (!Object.hasOwn(CONTACT_TOPICS, topic)) errors.topic = 'Choose a topic.'
  if (message.length < 10) errors.message = 'Tell us a little more (at least 10 characters).'
  else if (message.length > 5000) errors.message = 'Use at most 5000 characters.'
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return { ok: true, value: { name, email, company, topic: topic as ContactTopic, message } }
}

/** The topic preselected by `?topic=` (Book a Demo links to `?topic=demo`). */
export function topicFromSearch(search: string): ContactTopic {
  const topic = new URLSearchParams(search).get('topic') ?? ''
  return Object.hasOwn(CONTACT_TOPICS, topic) ? (topic as ContactTopic) : 'sales'
}
