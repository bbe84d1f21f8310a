// Large files from the console go through a signed upload URL (docs/upload-api.md, decision
// 016): the URL is asked for with the member's session, then the file is sent in parts (three at
// a time, each retried twice after a network failure or a 5xx), with progress from
// XMLHttpRequest, and completed with the list of parts. A failure keeps nothing: the server
// deletes the parts of a failed or abandoned upload.
import { ORG_SEGMENT } from '@tessera/url'
import { ASSETS, type FileItem, nonce } from './console-api.ts'
import { type HttpClient, HttpError, parseBody } from './http-client.ts'
import { joinUrl } from './runtime-config.ts'

/** Files larger than this go in parts through a signed URL; smaller ones in one request. */
export const SIGNED_UPLOAD_THRESHOLD = 8 * 1024 * 1024
/** The size of one part (the server's limit may be lower: it says so with the URL). */
export const PART_BYTES = 5 * 1024 * 1024
const PARALLEL = 3
const RETRIES = 2

interface SignedUrl {
  presignedUrl: { url: string; fields: Record<string, string> }
  partMaxBytes: number
}

export interface SignedUploadOptions {
  client: HttpClient
  apiUrl: string
  orgId: string
  file: Blob
  path: string
  name: string
  overwrite: boolean
  signal: AbortSignal
  onProgress: (loaded: number, total: number) => void
}

/** PUTs one part with XMLHttpRequest (for its progress); resolves when it is stored. */
function putPart(
  url: string,
  form: FormData,
  signal: AbortSignal,
  onProgress: (loaded: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'))
      return
    }
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', url)
    xhr.setRequestHeader('accept', 'application/json')
    xhr.upload.addEventListener('progress', (event) => onProgress(event.loaded))
    const onAbort = () => xhr.abort()
    signal.addEventListener('abort', onAbort, { once: true })
    xhr.addEventListener('load', () => {
      signal.removeEventListener('abort', onAbort)
      if (xhr.status >= 200 && xhr.status < 300) resolve()
      else reject(new HttpError(xhr.status, 'PUT', url, parseBody(xhr.responseText)))
    })
    xhr.addEventListener('error', () => {
      signal.removeEventListener('abort', onAbort)
      reject(new TypeError('A part could not reach the server'))
    })
    xhr.addEventListener('abort', () =>
      reject(new DOMException('The upload was cancelled', 'AbortError')),
    )
    xhr.send(form)
  })
}

const retriable = (error: unknown) =>
  error instanceof TypeError || (error instanceof HttpError && error.status >= 500)

/** Uploads `file` in parts through a signed URL of the organisation; answers the stored file. */
export async function signedUpload(options: SignedUploadOptions): Promise<FileItem> {
  const { file, signal } = options
  const made = await options.client.request<SignedUrl>(
    joinUrl(
      options.apiUrl,
      `${ASSETS}/${ORG_SEGMENT}/${encodeURIComponent(options.orgId)}/upload/signed-url?nonce=${nonce()}`,
    ),
    {
      method: 'POST',
      body: {
        ...(options.path === '' ? {} : { path: options.path }),
        name: options.name,
        overwrite: options.overwrite,
      },
    },
  )
  const { url, fields } = made.presignedUrl
  const partBytes = Math.max(1, Math.min(PART_BYTES, made.partMaxBytes))
  const count = Math.max(1, Math.ceil(file.size / partBytes))
  const loaded = new Array<number>(count).fill(0)
  const report = () =>
    options.onProgress(
      loaded.reduce((sum, n) => sum + n, 0),
      file.size,
    )

  async function send(index: number) {
    const chunk = file.slice(index * partBytes, Math.min(file.size, (index + 1) * partBytes))
    for (let attempt = 0; ; attempt++) {
      const form = new FormData()
      for (const [key, value] of Object.entries(fields)) form.append(key, value)
      form.append('file', chunk, 'part')
      try {
        await putPart(`${url}&partNumber=${index + 1}`, form, signal, (sent) => {
          loaded[index] = Math.min(sent, chunk.size)
          report()
        })
        loaded[index] = chunk.size
        report()
        return
      } catch (error) {
        if (attempt >= RETRIES || !retriable(error) || signal.aborted) throw error
        loaded[index] = 0
        await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt))
      }
    }
  }

  let next = 0
  const worker = async () => {
    while (next < count) {
      const index = next++
      await send(index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker))

  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ parts: Array.from({ length: count }, (_, i) => i + 1), ...fields }),
    signal,
  })
  const data = parseBody(await response.text())
  if (!response.ok) throw new HttpError(response.status, 'POST', url, data)
  return data as FileItem
}
