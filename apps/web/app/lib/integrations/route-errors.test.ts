import { describe, expect, it } from 'vitest'
import { createRouteErrorChannel, MAX_BUFFERED_ROUTE_ERRORS } from './route-errors.ts'

describe('the route error channel', () => {
  it('hands errors to listeners as they are reported', () => {
    const channel = createRouteErrorChannel()
    const seen: unknown[] = []
    const stop = channel.subscribe((error) => seen.push(error))
    channel.report(new Error('a'))
    stop()
    channel.report(new Error('b'))
    expect(seen.map((error) => (error as Error).message)).toEqual(['a'])
  })

  it('keeps errors reported before anyone listened, and hands them over once', () => {
    const channel = createRouteErrorChannel()
    channel.report('early')
    const first: unknown[] = []
    const second: unknown[] = []
    channel.subscribe((error) => first.push(error))
    channel.subscribe((error) => second.push(error))
    expect(first).toEqual(['early'])
    expect(second).toEqual([])
  })

  it('keeps only the newest errors while nobody listens', () => {
    const channel = createRouteErrorChannel()
    for (let i = 0; i < MAX_BUFFERED_ROUTE_ERRORS + 5; i++) channel.report(i)
    const seen: unknown[] = []
    channel.subscribe((error) => seen.push(error))
    expect(seen).toHaveLength(MAX_BUFFERED_ROUTE_ERRORS)
    expect(seen[0]).toBe(5)
  })
})
