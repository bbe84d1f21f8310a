// Reading JSON request bodies the same way in every API: the media type checked, the size
// limited, the text parsed, the shape validated with zod, and every failure a clear 4xx.
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { z } from 'zod'
import { HttpError } from './errors.ts'

export const MAX_JSON_BYTES = 64 * 1024

/** Middleware refusing a body larger than 64 KB with 413 before it is read. */
export const jsonLimit = bodyLimit({
  maxSize: MAX_JSON_BYTES,
  onError: () => {
    throw new HttpError(413, 'too_large', 'The JSON body is larger than 64 KB')
  },
})

/** The parsed JSON body; 415 for another media type, 400 for text that is not JSON. */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json')
  }
  const text = await c.req.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON')
  }
}

/** `value` checked against `schema`; 400 `invalid_body` naming the first bad field. */
export function parseBody<T>(value: unknown, schema: z.ZodType<T>): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
  }
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.join('.') || 'body'
  const message =
    issue?.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue?.message
  throw new HttpError(400, 'invalid_body', `${field} ${message ?? 'is invalid'}`)
}

/** Reads and validates a JSON object body in one step. */
export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  return parseBody(await readJson(c), schema)
}
