// The web app as the server mounts it: one fetch-style handler for the pages (server-rendered by
// React Router from the production build) and the static assets under /static/.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type {
  createRequestHandler,
  RouterContext,
  RouterContextProvider,
  ServerBuild,
} from 'react-router'
import type { WebContext } from '../app/lib/context.ts'
import type { RuntimeConfig } from '../app/lib/runtime-config.ts'
import { compressResponse } from './compress.ts'
import { createStaticHandler, STATIC_PREFIX } from './static.ts'

export type { ContactMessage, ContactSaved } from '../app/lib/contact.ts'
export { DEFAULT_RUNTIME_CONFIG, type RuntimeConfig } from '../app/lib/runtime-config.ts'
export { chooseEncoding, compressResponse, type Encoding } from './compress.ts'
export { STATIC_PREFIX } from './static.ts'

/** Where `npm run build -w @tessera/web` writes the app. */
export const BUILD_DIR = fileURLToPath(new URL('../build/', import.meta.url))

/** Options of `createWebHandler`. */
export interface WebHandlerOptions {
  /** The runtime configuration injected into every page (SPEC §7.2). */
  config: RuntimeConfig
  /** Answers requests to this origin's API in-process (the server's own `fetch`). */
  localFetch: (request: Request) => Promise<Response>
  /** Keeps a contact-form message (the server appends it to a file in its data folder). */
  saveContact: WebContext['saveContact']
  /** Where loaders write failures (the server's log, under the visitor's request id). */
  log?: WebContext['log']
  /** The build folder; defaults to `apps/web/build`. */
  buildDir?: string
}

/** Thrown when the web app has not been built. */
export class WebBuildMissingError extends Error {
  constructor(dir: string) {
    super(`The website is not built (no ${dir}server/index.js): run npm run build -w @tessera/web`)
    this.name = 'WebBuildMissingError'
  }
}

/** True when a production build of the web app exists. */
export function hasWebBuild(buildDir = BUILD_DIR): boolean {
  return existsSync(`${buildDir}server/index.js`)
}

/**
 * Creates the website's request handler: `/static/*` from the client build with a year of
 * immutable caching, every other path server-rendered; text is compressed (brotli or gzip) for
 * clients that accept it. The build is loaded on the first request.
 *
 * @throws {WebBuildMissingError} (from the returned handler) when the app has not been built.
 */
export function createWebHandler(
  options: WebHandlerOptions,
): (request: Request) => Promise<Response> {
  const buildDir = options.buildDir ?? BUILD_DIR
  const serveStatic = createStaticHandler(`${buildDir}client${STATIC_PREFIX}`)
  let ready:
    | Promise<{
        render: ReturnType<typeof createRequestHandler>
        key: RouterContext<WebContext>
        provider: (values: Map<RouterContext<WebContext>, WebContext>) => RouterContextProvider
      }>
    | undefined
  const load = async () => {
    const file = `${buildDir}server/index.js`
    if (!existsSync(file)) throw new WebBuildMissingError(buildDir)
    // React loads its development build (prop checks, warnings: renders several times slower)
    // unless NODE_ENV is 'production' when it is first imported. The site runs its production
    // build, so it gets production React unless NODE_ENV says otherwise; React (through
    // react-router and the build) is imported only from here on.
    process.env.NODE_ENV ??= 'production'
    const { createRequestHandler, RouterContextProvider } = await import('react-router')
    const build = (await import(file)) as ServerBuild
    const key = (build.entry.module as unknown as { webContext?: RouterContext<WebContext> })
      .webContext
    if (key === undefined) throw new Error('The web build does not export webContext')
    return {
      render: createRequestHandler(build, 'production'),
      key,
      provider: (values: Map<RouterContext<WebContext>, WebContext>) =>
        new RouterContextProvider(values),
    }
  }
  const context: WebContext = {
    config: options.config,
    localFetch: options.localFetch,
    saveContact: options.saveContact,
    log:
      options.log ??
      ((message, details) => {
        console.error(message, details)
      }),
  }
  return async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith(STATIC_PREFIX)) return serveStatic(request)
    ready ??= load().catch((error: unknown) => {
      ready = undefined
      throw error
    })
    const { render, key, provider } = await ready
    const response = await render(request, provider(new Map([[key, context]])))
    return compressResponse(request, response)
  }
}
