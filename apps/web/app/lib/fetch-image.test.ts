import { describe, expect, it } from 'vitest'
import { fetchImage, ImageFetchError } from './fetch-image.ts'

function answers(...statuses: number[]) {
  const calls: RequestInit[] = []
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    calls.push(init ?? {})
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? 500
    return new Response(status === 202 ? '{"status":"processing"}' : 'img', { status })
  }
  return { fetch: fetch as typeof globalThis.fetch, calls }
}

describe('image fetch (SPEC §4)', () => {
  it('retries a 202 with waits growing by the factor, then returns the image', async () => {
    const { fetch, calls } = answers(202, 202, 200)
    const waits: number[] = []
    const blob = await fetchImage('/x.png', {
      fetch,
      sleep: async (ms) => {
        waits.push(ms)
      },
    })
    expect(await blob.text()).toBe('img')
    expect(waits).toEqual([500, 1000])
    expect(calls.every((init) => init.credentials === 'omit')).toBe(true)
  })

  it('gives up after 12 retries', async () => {
    const { fetch, calls } = answers(202)
    await expect(fetchImage('/x.png', { fetch, sleep: async () => {} })).rejects.toBeInstanceOf(
      ImageFetchError,
    )
    expect(calls).toHaveLength(13)
  })

  it('fails at once on an error status', async () => {
    const { fetch, calls } = answers(501)
    await expect(fetchImage('/x.png', { fetch })).rejects.toMatchObject({ status: 501 })
    expect(calls).toHaveLength(1)
  })
})
