// Test support for the fast lane suites (fast-lane-*.test.ts): requests sent with the target
// exactly as written, answers compared without the headers that differ between any two, and
// uploads that overwrite a file.
import { request } from 'node:http'
import sharp from 'sharp'
import { expect } from 'vitest'
import type { TestServer } from '../test-server.ts'

export const ASSETS = '/service/panel/assets/v1.0'

export interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** A request with the target sent exactly as written, its headers as node:http read them. */
export function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers[name] = value
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Headers that differ between any two answers (the date, the request id, the connection). */
export function comparable(answer: Answer) {
  const {
    date,
    'x-request-id': requestId,
    connection,
    'keep-alive': keepAlive,
    ...rest
  } = answer.headers
  expect(requestId).toMatch(/^[\w.-]{1,64}$/)
  return { status: answer.status, headers: rest, body: answer.body.toString('base64') }
}

export async function widthOf(answer: Answer): Promise<number | undefined> {
  expect(answer.status).toBe(200)
  return (await sharp(answer.body).metadata()).width
}

export async function png(width: number): Promise<Buffer> {
  return sharp({ create: { width, height: 6, channels: 3, background: '#e63' } })
    .png()
    .toBuffer()
}

export async function upload(server: TestServer, token: string, name: string, width: number) {
  const body = new FormData()
  body.set('file', new Blob([await png(width)]), `${name}.png`)
  body.set('name', name)
  body.set('overwrite', 'true')
  const response = await fetch(`${server.url}${ASSETS}/upload/direct`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${token}` },
  })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as { fileId: string; orgId: string }
}
