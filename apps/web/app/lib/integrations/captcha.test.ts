import { afterEach, describe, expect, it, vi } from 'vitest'
import { CaptchaError, createTokenQueue } from './captcha.ts'

describe('captcha token queue', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('hands a token once and resets the widget for the next one', async () => {
    const reset = vi.fn()
    const queue = createTokenQueue(reset)
    queue.put('one')
    expect(await queue.take()).toBe('one')
    expect(reset).toHaveBeenCalledTimes(1)
    // The next call waits for the widget's next token.
    const next = queue.take()
    expect(queue.waiting).toBe(1)
    queue.put('two')
    expect(await next).toBe('two')
    expect(reset).toHaveBeenCalledTimes(2)
  })

  it('forgets an expired token', async () => {
    vi.useFakeTimers()
    const queue = createTokenQueue(() => undefined, 1000)
    queue.put('old')
    queue.drop()
    const waiting = queue.take()
    const failed = expect(waiting).rejects.toBeInstanceOf(CaptchaError)
    await vi.advanceTimersByTimeAsync(1001)
    await failed
    expect(queue.waiting).toBe(0)
  })

  it('fails every waiting call when the widget fails', async () => {
    const queue = createTokenQueue(() => undefined)
    const a = queue.take()
    const b = queue.take()
    queue.fail('The captcha could not load')
    await expect(a).rejects.toMatchObject({ code: 'captcha_failed' })
    await expect(b).rejects.toThrow('The captcha could not load')
  })
})
