// Calls of the playground and the AI tool pages. The two visitor calls (an upload into the demo
// organisation for 24 h, and signing a delivery URL whose chain has AI operations) are the
// server's `POST …/playground/v1.0/uploads` and `…/sign` (docs/api.md); a server without them
// answers 404, which the pages show as "not available".
import { ORG_SEGMENT, PANEL_API_PATHS, PUBLIC_API_PATHS, signRequest } from '@tessera/url'
import type { Preset } from '../components/playground/playground-state.ts'
import { CodedError } from './coded-error.ts'
import type { HttpClient } from './http-client.ts'
import { HttpError } from './http-client.ts'
import { CaptchaError } from './integrations/captcha.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'

export const PUBLIC_PLAYGROUND = PUBLIC_API_PATHS.playground
export const MEMBER_PLAYGROUND = `${PANEL_API_PATHS.playground}/${ORG_SEGMENT}`
export const ASSETS = PANEL_API_PATHS.assets
export const BILLING = PANEL_API_PATHS.billing
export const TRANSFORMATION_CONTEXT = `${PANEL_API_PATHS.transformation}/context`

/** The demo organisation visitors work in, and its sample folder. */
export const DEMO_CLOUD_NAME = 'demo'
export const SAMPLE_FILES = [
  'astronaut.png',
  'coffee.png',
  'chelsea.png',
  'horse.png',
  'camera.png',
  'rocket.jpg',
  'astronaut-wm.png',
] as const

/**
 * The sample the visitor playground opens on. Its original is the page's largest image (the LCP),
 * fetched only after hydration: a 110 KB JPEG rather than the 773 KB astronaut PNG.
 */
export const PLAYGROUND_DEFAULT_SAMPLE = 'rocket.jpg'
/** Its size in pixels: the server-rendered shell's `<img>` takes it, so nothing moves on load. */
export const PLAYGROUND_DEFAULT_SAMPLE_SIZE = { width: 640, height: 427 } as const

/** A demo sample's thumbnail from delivery, `size` CSS px shown at 2× (the sample pickers). */
export function sampleThumbnailUrl(config: RuntimeConfig, file: string, size: number): string {
  return joinUrl(
    config.deliveryUrl,
    `/v2/${DEMO_CLOUD_NAME}/t.resize(w:${size * 2},h:${size * 2})/samples/${file}?f_auto=true`,
  )
}

/** An uploaded file as the visitor upload answers it. */
export interface UploadedFile {
  path: string
  url: string
  width: number
  height: number
  format: string
  size: number
}

export interface VisitorUpload {
  file: UploadedFile
  expiresAt: string
  remaining: { uploads: number; aiRuns: number }
}

/** A failed call the pages explain: the status and the server's `{ code, message }`. */
export class CallError extends CodedError {
  override name = 'CallError'
}

/** The daily limit of the visitor calls (429). */
export const DAILY_LIMIT_CODE = 'daily_limit_exceeded'

function callErrorOf(status: number, body: unknown): CallError {
  const data = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown
    message?: unknown
  }
  const code =
    typeof data.code === 'string' ? data.code : status === 404 ? 'not_available' : 'http_error'
  const message = typeof data.message === 'string' ? data.message : `The server answered ${status}`
  return new CallError(status, code, message)
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

export interface UploadOptions {
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  /** Sent as `x-captcha-token` (visitors, when a captcha site key is configured). */
  captchaToken?: string
  /** Extra multipart fields (`path`, `name`). */
  fields?: Record<string, string>
  /** Panel uploads with a session are signed (SPEC §7.1). */
  signingKey?: string
}

/**
 * Posts one file as multipart with upload progress (XMLHttpRequest: fetch reports none).
 * Resolves with the JSON answer of a 2xx; rejects with `CallError` otherwise.
 */
export async function postFile<T>(url: string, file: Blob, options: UploadOptions = {}) {
  const headers: Record<string, string> = {}
  if (options.captchaToken !== undefined) headers['x-captcha-token'] = options.captchaToken
  if (options.signingKey !== undefined && options.signingKey !== '') {
    const absolute = new URL(url, window.location.origin).href
    // Multipart bodies are signed as empty (docs/api.md, request signing).
    Object.assign(headers, await signRequest({ method: 'POST', url: absolute }, options.signingKey))
  }
  const form = new FormData()
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value)
  form.append('file', file, file instanceof File ? file.name : 'image')
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    xhr.withCredentials = true
    xhr.setRequestHeader('accept', 'application/json')
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = parseJson(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1)
        resolve(body as T)
      } else reject(callErrorOf(xhr.status, body))
    }
    xhr.onerror = () => reject(new CallError(0, 'network_error', 'The upload could not be sent'))
    xhr.onabort = () => reject(new CallError(0, 'cancelled', 'The upload was cancelled'))
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}

const at = (config: RuntimeConfig, path: string) => joinUrl(config.apiUrl, path)

/** Visitor upload into the demo organisation (kept 24 h); 429 past ANON_UPLOADS_PER_DAY. */
export function uploadAsVisitor(
  config: RuntimeConfig,
  file: Blob,
  options: Omit<UploadOptions, 'signingKey' | 'fields'> = {},
): Promise<VisitorUpload> {
  return postFile<VisitorUpload>(at(config, `${PUBLIC_PLAYGROUND}/uploads`), file, options)
}

/**
 * Visitor signing of a demo delivery URL with AI operations (with the captcha's token when one
 * is configured). Delivery answers 429 `daily_limit_exceeded` once the address has started its
 * daily AI renders.
 */
export async function signAsVisitor(
  config: RuntimeConfig,
  url: string,
  captchaToken?: string,
): Promise<{ url: string; remaining: { aiRuns: number } }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  }
  if (captchaToken !== undefined) headers['x-captcha-token'] = captchaToken
  const response = await fetch(at(config, `${PUBLIC_PLAYGROUND}/sign`), {
    method: 'POST',
    headers,
    body: JSON.stringify({ url }),
    credentials: 'include',
  })
  const body = parseJson(await response.text())
  if (!response.ok) throw callErrorOf(response.status, body)
  return body as { url: string; remaining: { aiRuns: number } }
}

/**
 * A delivery URL of the member's own organisation signed for an hour (a signed panel call), so
 * its AI operations run under strict transformations.
 */
export async function signAsMember(
  client: HttpClient,
  config: RuntimeConfig,
  orgId: string,
  url: string,
): Promise<string> {
  const answer = await client.request<{ url: string }>(
    at(config, `${MEMBER_PLAYGROUND}/${encodeURIComponent(orgId)}/sign`),
    { method: 'POST', body: { url } },
  )
  return answer.url
}

/** A member's upload into their organisation (the `playground` folder). */
export interface MemberFile {
  fileId?: string
  name: string
  path: string
  fullPath: string
  format?: string
  size?: number
  width?: number
  height?: number
  url: string
  type?: string
}

export function uploadAsMember(
  config: RuntimeConfig,
  orgId: string,
  file: Blob,
  options: Pick<UploadOptions, 'onProgress' | 'signal'> = {},
): Promise<MemberFile> {
  const url = `${at(config, `${ASSETS}/upload/direct`)}?orgId=${encodeURIComponent(orgId)}`
  return postFile<MemberFile>(url, file, {
    ...options,
    signingKey: config.panelSigningKey,
    fields: { path: 'playground' },
  })
}

function orgPath(orgId: string, rest: string) {
  return `${ASSETS}/${ORG_SEGMENT}/${encodeURIComponent(orgId)}${rest}`
}

/** One level of the organisation's files (folders first, then files). */
export async function listFiles(
  client: HttpClient,
  config: RuntimeConfig,
  orgId: string,
  path: string,
): Promise<{ items: MemberFile[]; hasNext: boolean }> {
  const query = new URLSearchParams({ path, pageNo: '1', pageSize: '100' })
  const answer = await client.request<{ items: MemberFile[]; page: { hasNext: boolean } }>(
    at(config, `${orgPath(orgId, '/files')}?${query}`),
  )
  return { items: answer.items, hasNext: answer.page.hasNext }
}

/** Every usable (not archived) preset of the organisation, all pages. */
export async function listPresets(
  client: HttpClient,
  config: RuntimeConfig,
  orgId: string,
): Promise<Preset[]> {
  const presets: Preset[] = []
  for (let page = 1; page <= 20; page++) {
    const answer = await client.request<{ items: Preset[]; page: { hasNext: boolean } }>(
      at(config, `${orgPath(orgId, '/presets')}?archived=false&pageNo=${page}&pageSize=100`),
    )
    presets.push(...answer.items)
    if (!answer.page.hasNext) break
  }
  return presets
}

/** The organisation's credit balance. */
export async function getCredits(
  client: HttpClient,
  config: RuntimeConfig,
  orgId: string,
): Promise<number> {
  const answer = await client.request<{ balance: number }>(
    at(config, `${BILLING}/${ORG_SEGMENT}/${encodeURIComponent(orgId)}/credits`),
  )
  return answer.balance
}

/** The transformation context of a delivery URL (members); its error is shown as it comes. */
export async function getTransformationContext(
  client: HttpClient,
  config: RuntimeConfig,
  url: string,
): Promise<unknown> {
  return client.request(at(config, `${TRANSFORMATION_CONTEXT}?url=${encodeURIComponent(url)}`))
}

/** `{ status, code, message }` of any failure of the calls above. */
export function describeFailure(error: unknown): { status: number; code: string; message: string } {
  if (error instanceof CallError) return error
  if (error instanceof CaptchaError) return { status: 0, code: error.code, message: error.message }
  if (error instanceof HttpError) {
    const data = (error.data ?? {}) as { code?: unknown; message?: unknown }
    return {
      status: error.status,
      code: typeof data.code === 'string' ? data.code : 'http_error',
      message: typeof data.message === 'string' ? data.message : error.message,
    }
  }
  return { status: 0, code: 'network_error', message: String(error) }
}
