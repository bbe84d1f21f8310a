import { describe, expect, it } from 'vitest'
import {
  createErrorReporter,
  envelopeOf,
  errorEvent,
  isChunkLoadError,
  MAX_EVENTS_PER_PAGE,
  parseDsn,
  parseStack,
} from './error-reporting.ts'

describe('the DSN', () => {
  it('names the envelope endpoint with the public key', () => {
    expect(parseDsn('https://abc123@errors.example.com/42')).toEqual({
      envelopeUrl: 'https://errors.example.com/api/42/envelope/?sentry_key=abc123&sentry_version=7',
      publicKey: 'abc123',
      projectId: '42',
      dsn: 'https://abc123@errors.example.com/42',
    })
  })

  it('keeps a path prefix and a port', () => {
    expect(parseDsn('http://k@127.0.0.1:9000/sentry/7')?.envelopeUrl).toBe(
      'http://127.0.0.1:9000/sentry/api/7/envelope/?sentry_key=k&sentry_version=7',
    )
  })

  it.each([
    '',
    'not a url',
    'https://errors.example.com/42',
    'https://k@errors.example.com/',
    'ftp://k@h/1',
  ])('rejects %j', (dsn) => {
    expect(parseDsn(dsn)).toBeUndefined()
  })
})

describe('events', () => {
  it('describe an error with its stack, outermost frame first', () => {
    const error = new TypeError('x is undefined')
    error.stack = [
      'TypeError: x is undefined',
      '    at inner (https://site.test/static/a.js:1:10)',
      '    at https://site.test/static/b.js:2:20',
    ].join('\n')
    const event = errorEvent(error, { eventId: 'e1', now: 1_000, url: 'https://site.test/pricing' })
    expect(event).toMatchObject({
      event_id: 'e1',
      timestamp: 1,
      platform: 'javascript',
      level: 'error',
      request: { url: 'https://site.test/pricing' },
      exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] },
    })
    expect(event.exception.values[0]?.stacktrace?.frames.map((f) => f.function)).toEqual([
      '?',
      'inner',
    ])
  })

  it('describe a thrown non-error by its string form', () => {
    const event = errorEvent('boom', { eventId: 'e2', now: 0, url: '/' })
    expect(event.exception.values).toEqual([{ type: 'Error', value: 'boom' }])
  })

  it('parse Firefox stacks too', () => {
    expect(parseStack('run@https://site.test/a.js:3:4')).toEqual([
      { function: 'run', filename: 'https://site.test/a.js', lineno: 3, colno: 4, in_app: true },
    ])
  })

  it('travel in an envelope of three lines', () => {
    const dsn = parseDsn('https://k@errors.example.com/1')
    if (dsn === undefined) throw new Error('dsn')
    const event = errorEvent(new Error('x'), { eventId: 'e3', now: 0, url: '/' })
    const lines = envelopeOf(event, dsn, 0).split('\n')
    expect(lines).toHaveLength(3)
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      event_id: 'e3',
      sent_at: '1970-01-01T00:00:00.000Z',
      dsn: 'https://k@errors.example.com/1',
    })
    expect(JSON.parse(lines[1] ?? '')).toEqual({ type: 'event' })
    expect(JSON.parse(lines[2] ?? '')).toMatchObject({ event_id: 'e3' })
  })
})

describe('the reporter', () => {
  it('posts each captured error to the envelope endpoint', () => {
    const sent: { url: string; body: string }[] = []
    const reporter = createErrorReporter({
      dsn: 'https://k@errors.example.com/5',
      url: () => 'https://site.test/',
      send: async (url, body) => sent.push({ url, body }),
      eventId: () => 'id',
      now: () => 0,
    })
    expect(reporter.capture(new Error('first'), { where: 'test' })).toBe(true)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.url).toBe(
      'https://errors.example.com/api/5/envelope/?sentry_key=k&sentry_version=7',
    )
    expect(JSON.parse(sent[0]?.body.split('\n')[2] ?? '')).toMatchObject({
      exception: { values: [{ value: 'first' }] },
      tags: { where: 'test' },
    })
  })

  it('is off with a DSN that does not parse', () => {
    const reporter = createErrorReporter({ dsn: 'nope', url: () => '/', send: async () => {} })
    expect(reporter.capture(new Error('x'))).toBe(false)
  })

  it(`stops after ${MAX_EVENTS_PER_PAGE} events on one page`, () => {
    let count = 0
    const reporter = createErrorReporter({
      dsn: 'https://k@errors.example.com/5',
      url: () => '/',
      send: async () => {
        count += 1
      },
    })
    for (let i = 0; i < MAX_EVENTS_PER_PAGE + 5; i++) reporter.capture(new Error(String(i)))
    expect(count).toBe(MAX_EVENTS_PER_PAGE)
  })

  it('does not throw when sending fails', async () => {
    const reporter = createErrorReporter({
      dsn: 'https://k@errors.example.com/5',
      url: () => '/',
      send: async () => {
        throw new Error('offline')
      },
    })
    expect(reporter.capture(new Error('x'))).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
})

describe('chunk load failures (SPEC §8)', () => {
  it.each([
    'Failed to fetch dynamically imported module: https://site.test/static/pricing-1.js',
    'Importing a module script failed.',
    'error loading dynamically imported module',
    'Unable to preload CSS for /static/a.css',
  ])('recognises %j', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true)
  })

  it('leaves other errors alone', () => {
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false)
  })
})
