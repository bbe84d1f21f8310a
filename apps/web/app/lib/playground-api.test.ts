// The visitor signing call of the agreed contract against a real HTTP server on loopback: what
// the pages get for 200, the daily limit (429) and a server without the call (404).
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpError } from './http-client.ts'
import { CallError, DAILY_LIMIT_CODE, describeFailure, signAsVisitor } from './playground-api.ts'
import { DEFAULT_RUNTIME_CONFIG } from './runtime-config.ts'

let server: Server
let base = ''
let answer: { status: number; body: string } = { status: 200, body: '{}' }
const received: unknown[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, body: JSON.parse(body || 'null') })
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const config = () => ({ ...DEFAULT_RUNTIME_CONFIG, apiUrl: base })
const AI_URL = 'http://localhost:4201/v2/demo/ic.crop(w:10,h:10)/samples/coffee.png'

describe('visitor signing (POST /service/public/playground/v1.0/sign)', () => {
  it('posts the delivery URL and answers the signed URL and what is left today', async () => {
    answer = {
      status: 200,
      body: JSON.stringify({ url: `${AI_URL}?pbs=1`, remaining: { aiRuns: 4 } }),
    }
    const signed = await signAsVisitor(config(), AI_URL)
    expect(signed).toEqual({ url: `${AI_URL}?pbs=1`, remaining: { aiRuns: 4 } })
    expect(received.at(-1)).toEqual({
      method: 'POST',
      url: '/service/public/playground/v1.0/sign',
      body: { url: AI_URL },
    })
  })

  it('rejects with the daily limit code and the server message on 429', async () => {
    answer = {
      status: 429,
      body: JSON.stringify({
        code: DAILY_LIMIT_CODE,
        message: 'You have used today’s 5 free AI runs.',
      }),
    }
    const failure = await signAsVisitor(config(), AI_URL).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CallError)
    expect(describeFailure(failure)).toMatchObject({
      status: 429,
      code: DAILY_LIMIT_CODE,
      message: 'You have used today’s 5 free AI runs.',
    })
  })

  it('reports a server without the call as not available (404)', async () => {
    answer = { status: 404, body: 'not json' }
    const failure = await signAsVisitor(config(), AI_URL).catch((error: unknown) => error)
    expect(describeFailure(failure)).toMatchObject({ status: 404, code: 'not_available' })
  })

  it('describes failures of the shared client by their body', () => {
    const error = new HttpError(402, 'GET', '/x', {
      code: 'insufficient_credits',
      message: 'No credits',
    })
    expect(describeFailure(error)).toEqual({
      status: 402,
      code: 'insufficient_credits',
      message: 'No credits',
    })
  })
})
