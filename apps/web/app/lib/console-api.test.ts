import { describe, expect, it } from 'vitest'
import { withReplayRetry } from './console-api.ts'
import { type HttpClient, HttpError, type RequestOptions } from './http-client.ts'

function scripted(answers: (unknown | HttpError)[]) {
  const calls: string[] = []
  const client: HttpClient = {
    async request<T>(url: string, options: RequestOptions = {}): Promise<T> {
      calls.push(`${options.method ?? 'GET'} ${url}`)
      const answer = answers.shift()
      if (answer instanceof HttpError) throw answer
      return answer as T
    },
  }
  return { client, calls }
}

const replayed = () =>
  new HttpError(400, 'PATCH', '/x', { code: 'signature_replayed', message: 'already made' })

describe('changes the server took for a replay', () => {
  it('are sent once more, a second later', async () => {
    const { client, calls } = scripted([replayed(), { ok: true }])
    const waits: number[] = []
    const retrying = withReplayRetry(client, async (ms) => {
      waits.push(ms)
    })
    expect(await retrying.request('/x', { method: 'PATCH', body: {} })).toEqual({ ok: true })
    expect(calls).toEqual(['PATCH /x', 'PATCH /x'])
    expect(waits).toEqual([1100])
  })

  it('only once, and never for reads or other errors', async () => {
    const twice = scripted([replayed(), replayed()])
    await expect(
      withReplayRetry(twice.client, async () => {}).request('/x', { method: 'POST' }),
    ).rejects.toBeInstanceOf(HttpError)
    expect(twice.calls).toHaveLength(2)
    const other = scripted([new HttpError(409, 'PATCH', '/x', { code: 'no_signing_key' })])
    await expect(
      withReplayRetry(other.client, async () => {}).request('/x', { method: 'PATCH' }),
    ).rejects.toBeInstanceOf(HttpError)
    expect(other.calls).toHaveLength(1)
    const read = scripted([replayed()])
    await expect(withReplayRetry(read.client, async () => {}).request('/x')).rejects.toBeInstanceOf(
      HttpError,
    )
    expect(read.calls).toHaveLength(1)
  })
})
