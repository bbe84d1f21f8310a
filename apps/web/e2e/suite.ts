// The set-up every browser suite shares: a server started before a file's (or a describe's) tests
// and stopped after them, and the worker's Chromium, so that a suite states only what is its own
// (the server's settings, a second server). Each test opens its own browser context (`openPage`).
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startWebServer, type WebServer, workerBrowser } from './harness.ts'

/** The server and the browser the tests of a file (or a `describe`) share. */
export interface WebSuite {
  readonly server: WebServer
  readonly browser: Browser
}

/** A server's settings, or a function for them called when it starts (e.g. a stand-in's URL). */
export type SuiteEnv = Record<string, string> | (() => Record<string, string>)

function started<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`the suite's ${name} is read before it has started`)
  return value
}

/**
 * The set-up every browser suite shares, in one place: a server (`startWebServer`'s arguments)
 * started before the suite's tests and stopped after them, and the worker's Chromium
 * (`workerBrowser`). Read `server` and `browser` inside tests and hooks.
 */
export function webSuite(
  env: SuiteEnv = {},
  options: Parameters<typeof startWebServer>[1] = {},
): WebSuite {
  const own = suiteServer(env, options)
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await workerBrowser()
  })
  return {
    get server() {
      return own.server
    },
    get browser() {
      return started(browser, 'browser')
    },
  }
}

/** One more server for a suite (other settings), beside the one `webSuite` gives it. */
export function suiteServer(
  env: SuiteEnv = {},
  options: Parameters<typeof startWebServer>[1] = {},
): { readonly server: WebServer } {
  let server: WebServer | undefined
  beforeAll(async () => {
    server = await startWebServer(typeof env === 'function' ? env() : env, options)
  })
  afterAll(async () => {
    await server?.stop()
  })
  return {
    get server() {
      return started(server, 'server')
    },
  }
}
