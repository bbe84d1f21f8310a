// Loaders call the API through the same client as the browser; a call to this origin is
// answered in-process (unsigned, under the visitor's request id: see the server's http/web.ts),
// and the visitor's cookie goes along so session-bound calls work.
import type { RouterContextProvider } from 'react-router'
import type { FailureLog } from './api.ts'
import { webContext } from './context.ts'
import { createHttpClient, type HttpClient } from './http-client.ts'
import type { RuntimeConfig } from './runtime-config.ts'

export interface ServerApi {
  client: HttpClient
  config: RuntimeConfig
  origin: string
  /** The server's log, under the visitor's request id: for failures a loader gives up on. */
  log: FailureLog
}

export function serverApi(request: Request, context: Readonly<RouterContextProvider>): ServerApi {
  const { config, localFetch, log } = context.get(webContext)
  const origin = new URL(request.url).origin
  const cookie = request.headers.get('cookie')
  const apiOrigin = config.apiUrl === '' ? origin : new URL(config.apiUrl, origin).origin
  const client = createHttpClient({
    origin,
    // A call answered in-process never leaves the process: signing it (and checking the
    // signature in the same process) guards nothing. Loaders only read, so none is required.
    signingKey: apiOrigin === origin ? '' : config.panelSigningKey,
    fetch: (call) => (new URL(call.url).origin === origin ? localFetch(call) : fetch(call)),
    headers: cookie === null ? {} : { cookie },
    // The server logs every in-process call, failures too, under the visitor's request id; a
    // call to an API on another host is logged here, under the same id.
    log: (message, details) => {
      if (new URL(details.url).origin !== origin) log(message, { err: details })
    },
  })
  return { client, config, origin, log }
}

/** The runtime configuration alone. */
export function runtimeConfig(context: Readonly<RouterContextProvider>): RuntimeConfig {
  return context.get(webContext).config
}
