import { describe, expect, it } from 'vitest'
import { parseContact, topicFromSearch } from './contact.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [key, value] of Object.entries(fields)) data.set(key, value)
  return data
}

describe('contact form', () => {
  it('accepts a complete message, trimmed', () => {
    const parsed = parseContact(
      form({
        name: ' Ada ',
        email: 'ada@example.com',
        topic: 'demo',
        message: 'Please show me around.',
      }),
    )
    expect(parsed).toEqual({
      ok: true,
      value: {
        name: 'Ada',
        email: 'ada@example.com',
        company: '',
        topic: 'demo',
        message: 'Please show me around.',
      },
    })
  })

  it('names every field that is wrong', () => {
    const parsed = parseContact(
      form({ name: '', email: 'not-an-email', topic: 'spam', message: 'short' }),
    )
    expect(parsed.ok).toBe(false)
    if (!parsed.ok)
      expect(Object.keys(parsed.errors).sort()).toEqual(['email', 'message', 'name', 'topic'])
  })

  it('preselects the topic from the query, sales otherwise', () => {
    expect(topicFromSearch('?topic=demo')).toBe('demo')
    expect(topicFromSearch('?topic=__proto__')).toBe('sales')
    expect(topicFromSearch('')).toBe('sales')
  })
})
