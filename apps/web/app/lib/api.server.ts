// Loaders call the API through the same client as the browser; a call to this origin is
// answered in-process, and the visitor's cookie goes along so session-bound calls work.
import type { RouterContextProvider } from 'react-router'
import { webContext } from './context.ts'
import { createHttpClient, type HttpClient } from './http-client.ts'
import type { RuntimeConfig } from './runtime-config.ts'

export interface ServerApi {
  client: HttpClient
  config: RuntimeConfig
  origin: string
}

export function serverApi(request: Request, context: Readonly<RouterContextProvider>): ServerApi {
  const { config, localFetch } = context.get(webContext)
  const origin = new URL(request.url).origin
  const cookie = request.headers.get('cookie')
  const client = createHttpClient({
    origin,
    signingKey: config.panelSigningKey,
    fetch: (call) => (new URL(call.url).origin === origin ? localFetch(call) : fetch(call)),
    headers: cookie === null ? {} : { cookie },
    log: () => {},
  })
  return { client, config, origin }
}

/** The runtime configuration alone. */
export function runtimeConfig(context: Readonly<RouterContextProvider>): RuntimeConfig {
  return context.get(webContext).config
}
