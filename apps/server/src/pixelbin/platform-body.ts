// What the platform calls read from a request besides the asset rules: a JSON object body.
import type { Context } from 'hono'
import { HttpError } from '../http/errors.ts'
import { readJson } from '../http/json-body.ts'

/** A 400 naming the field in its message. */
export const invalidField = (message: string) => new HttpError(400, 'invalid_field', message)

/** The JSON object body of a call, or 400. */
export async function objectBody(c: Context): Promise<Record<string, unknown>> {
  const body = await readJson(c)
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', 'The body must be a JSON object')
  }
  return body as Record<string, unknown>
}
