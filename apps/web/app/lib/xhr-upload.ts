// Direct uploads with progress. fetch() reports no upload progress, so the console uploads with
// XMLHttpRequest, signed and treated exactly as the shared HTTP client treats a panel call
// (SPEC §7.1: x-ebg-* headers; §7.2: 401/403 go to the login page).
import { signRequest } from '@tessera/url'
import { HttpError, needsSignIn, parseBody } from './http-client.ts'

export interface XhrUploadOptions {
  url: string
  form: FormData
  signingKey: string
  onProgress: (loaded: number, total: number) => void
  signal: AbortSignal
  onUnauthorized: () => void
}

export async function xhrUpload<T>(options: XhrUploadOptions): Promise<T> {
  const url = new URL(options.url, window.location.origin)
  // Multipart bodies are signed with the hash of the empty body (docs/api.md).
  const headers: Record<string, string> =
    options.signingKey === ''
      ? {}
      : { ...(await signRequest({ method: 'POST', url: url.href }, options.signingKey)) }
  return new Promise<T>((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'))
      return
    }
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url.href)
    xhr.withCredentials = true
    xhr.setRequestHeader('accept', 'application/json')
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded, event.total)
    })
    const onAbort = () => xhr.abort()
    options.signal.addEventListener('abort', onAbort, { once: true })
    xhr.addEventListener('load', () => {
      options.signal.removeEventListener('abort', onAbort)
      const data = parseBody(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T)
        return
      }
      console.error(`HTTP ${xhr.status} POST ${url.href}`, { status: xhr.status, data })
      if (needsSignIn(xhr.status, url.href, data)) options.onUnauthorized()
      reject(new HttpError(xhr.status, 'POST', url.href, data))
    })
    xhr.addEventListener('error', () => {
      options.signal.removeEventListener('abort', onAbort)
      reject(new TypeError('The upload could not reach the server'))
    })
    xhr.addEventListener('abort', () => {
      reject(new DOMException('The upload was cancelled', 'AbortError'))
    })
    xhr.send(options.form)
  })
}
