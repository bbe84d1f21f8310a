// Browser-test support: a real Tessera server (PGlite in memory, its own data folder) on a free
// port, and Debian's Chromium driven by playwright-core. A missing browser fails the suite.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
export const CHROME_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
} as const

export type ViewportName = keyof typeof VIEWPORTS

export interface StoredContactMessage {
  name: string
  email: string
  company: string
  topic: string
  message: string
}

export interface WebServer {
  url: string
  dataDir: string
  /** The newest contact-form messages the server stored, newest first. */
  contactMessages(limit: number): Promise<StoredContactMessage[]>
  /** Reads the content files again, as the server's SIGHUP does (the page cache empties). */
  reloadContent(): Promise<void>
  stop(): Promise<void>
}

// The server is loaded by path at run time: its sources are type-checked by its own workspace
// (Node types), not under this app's DOM types, where Node's Buffer and fetch's BodyInit clash.
interface ServerModules {
  loadConfig: (env: Record<string, string>) => unknown
  startServer: (
    config: unknown,
    options: { databaseDir: string; contentDir?: string },
  ) => Promise<{
    close(): Promise<void>
    services: {
      reloadContent(): Promise<void>
      context: {
        repo: { listContactMessages(limit: number): Promise<StoredContactMessage[]> }
      }
    }
  }>
}

async function serverModules(): Promise<ServerModules> {
  const at = (file: string) => new URL(`../../server/src/${file}`, import.meta.url).href
  const [config, server] = await Promise.all([import(at('config.ts')), import(at('server.ts'))])
  return { loadConfig: config.loadConfig, startServer: server.startServer }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts the whole server with the demo data. The port is known before start so that PUBLIC_URL
 * (and the image URLs the API answers with) point at this very server.
 */
export async function startWebServer(
  env: Record<string, string> = {},
  options: { database?: 'pglite' | 'postgres'; contentDir?: string } = {},
): Promise<WebServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-web-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const { loadConfig, startServer } = await serverModules()
  // On PostgreSQL the server gets a throwaway database of the machine's PostgreSQL
  // (TEST_DATABASE_URL), dropped when it stops.
  const database = options.database === 'postgres' ? await throwawayDatabase() : undefined
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: String(port),
    PUBLIC_URL: url,
    ...(database === undefined ? {} : { DATABASE_URL: database.url }),
    ...env,
  })
  const cleanUp = async () => {
    await rm(dataDir, { recursive: true, force: true })
    await database?.drop()
  }
  try {
    // `contentDir` swaps the content files (more apps for paging tests).
    const server = await startServer(config, {
      databaseDir: 'memory://',
      ...(options.contentDir === undefined ? {} : { contentDir: options.contentDir }),
    })
    return {
      url,
      dataDir,
      contactMessages: (limit) => server.services.context.repo.listContactMessages(limit),
      reloadContent: () => server.services.reloadContent(),
      stop: async () => {
        await server.close()
        await cleanUp()
      },
    }
  } catch (error) {
    await cleanUp()
    throw error
  }
}

async function throwawayDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const at = new URL('../../server/src/db/test-database.ts', import.meta.url).href
  const module = (await import(at)) as {
    createThrowawayDatabase: () => Promise<{ url: string; drop(): Promise<void> }>
  }
  return module.createThrowawayDatabase()
}

/** Launches Chromium; throws (never skips) when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROME_PATH}: install it (apt-get install -y chromium) or set CHROME_PATH`,
    )
  }
  return chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS })
}

/** A fresh browser context (own cookies and storage) at one of the two test widths. */
export async function openPage(
  browser: Browser,
  viewport: ViewportName,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[]; consoleErrors: string[] }> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    baseURL,
    ...(viewport === 'mobile' ? { hasTouch: true, isMobile: true } : {}),
  })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const consoleErrors = watchConsoleErrors(page)
  return { context, page, errors, consoleErrors }
}

/**
 * Collects what the page logs as an error (`console.error`, and Chromium's own lines for failed
 * requests such as a 401), with the page it was on.
 */
export function watchConsoleErrors(page: Page): string[] {
  const messages: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') messages.push(`${page.url()}: ${message.text()}`)
  })
  return messages
}

/**
 * Waits until React has hydrated the page (every mount effect has run: the app marks
 * `<html data-hydrated>`) and the network is quiet. With the session resolved on the server, an
 * anonymous page may make no request after its scripts, so quiet alone does not mean hydrated.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.waitForLoadState('networkidle')
}

let counter = 0
/** A unique email for a sign-up. */
export function uniqueEmail(): string {
  counter += 1
  return `web-${Date.now().toString(36)}-${counter}@example.com`
}
