// Browser-test support: a real Tessera server (a copy of the migrated PostgreSQL template, or
// PGlite in memory loaded from the migrated snapshot; its own data folder) on a free port, and Debian's Chromium driven by playwright-core. A missing browser fails the suite. Also
// what the test files share once a page is open: waiting for it, signing up, the demo's samples,
// the page's errors and analytics events, and its width.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { signRequest } from '@tessera/url'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { webBuilt } from './build-status.ts'
import { networkQuiet, watchTraffic } from './traffic.ts'

// Debian's headless shell when installed (what Playwright itself runs headless; ~40 % less CPU
// than the full browser for the same tests), else Debian's full Chromium — the same choice as
// scripts/test-prerequisites.ts, which checks it before any test (decision 012).
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
export const CHROME_PATH =
  process.env.CHROME_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')
export const CHROME_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Site isolation starts a second renderer process for many new pages (about:blank, then the
  // site): 25 renderers for 10 pages with it, 18 without. Each costs CPU; the tests need none.
  '--disable-site-isolation-trials',
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
    options: { databaseDir: string; databaseSnapshot?: Blob; contentDir?: string },
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

interface TestDatabaseModule {
  createThrowawayDatabase: (options: {
    migrated: boolean
  }) => Promise<{ url: string; drop(): Promise<void> }>
  migratedPgliteSnapshot: () => Promise<Blob>
  defaultTestDatabase: () => 'pglite' | 'postgres'
}

const serverSource = (file: string) => new URL(`../../server/src/${file}`, import.meta.url).href

async function serverModules(): Promise<ServerModules> {
  const [config, server] = await Promise.all([
    import(serverSource('config.ts')),
    import(serverSource('server.ts')),
  ])
  return { loadConfig: config.loadConfig, startServer: server.startServer }
}

function testDatabaseModule(): Promise<TestDatabaseModule> {
  return import(serverSource('db/test-database.ts')) as Promise<TestDatabaseModule>
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
  options: {
    /** Default: the test run's one database (`TEST_DATABASE`, default PostgreSQL; decision 012). */
    database?: 'pglite' | 'postgres'
    contentDir?: string
    /** The host name of PUBLIC_URL and `url` (default 127.0.0.1; `localhost` as `npm start`). */
    publicHost?: string
  } = {},
): Promise<WebServer> {
  // The build is made while other tests run: the first suites wait for it here.
  await webBuilt()
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-web-'))
  const port = await freePort()
  const url = `http://${options.publicHost ?? '127.0.0.1'}:${port}`
  const { loadConfig, startServer } = await serverModules()
  // On PostgreSQL the server gets a throwaway copy of the migrated template on the machine's
  // PostgreSQL (TEST_DATABASE_URL), dropped when it stops; on PGlite, the migrated snapshot.
  const databases = await testDatabaseModule()
  const database =
    (options.database ?? databases.defaultTestDatabase()) === 'postgres'
      ? await databases.createThrowawayDatabase({ migrated: true })
      : undefined
  const snapshot = database === undefined ? await databases.migratedPgliteSnapshot() : undefined
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: String(port),
    PUBLIC_URL: url,
    // The test run's inference threads (vitest.workers.ts, TEST_ENV).
    ...(process.env.AI_THREADS === undefined ? {} : { AI_THREADS: process.env.AI_THREADS }),
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
      ...(snapshot === undefined ? {} : { databaseSnapshot: snapshot }),
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

/** Launches Chromium; throws (never skips) when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROME_PATH}: install it (apt-get install -y chromium-headless-shell) or set CHROME_PATH`,
    )
  }
  return chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS })
}

// Kept on the global object, so that a worker shares it even where each file loads the harness
// anew (TEST_ISOLATE=1).
const WORKER_BROWSER = Symbol.for('tessera.e2e.workerBrowser')
type WorkerGlobal = { [WORKER_BROWSER]?: Promise<Browser> }

/**
 * The Chromium of this test worker, launched at the first call and shared by every suite the
 * worker runs: a launch costs about 0.8 s of CPU on this machine, and the suites isolate their
 * tests by browser context (`openPage`), not by browser. Suites do not close it; Playwright
 * closes it when the worker exits. One that has crashed or been closed is launched again.
 */
export function workerBrowser(): Promise<Browser> {
  const global = globalThis as WorkerGlobal
  const kept = global[WORKER_BROWSER] ?? Promise.reject(new Error('not launched yet'))
  // Chained on the last call, so that calls at once share one launch.
  const next = kept.then(
    (browser) => (browser.isConnected() ? browser : launchBrowser()),
    () => launchBrowser(),
  )
  global[WORKER_BROWSER] = next
  return next
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
  watchTraffic(page)
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
  await networkQuiet(page)
}

let counter = 0
/** A unique email for a sign-up. */
export function uniqueEmail(): string {
  counter += 1
  return `web-${Date.now().toString(36)}-${counter}@example.com`
}

/** The password every test account gets. */
export const PASSWORD = 'a long enough password'

/** Who signs up: a first and last name, and an e-mail (a unique one unless given). */
export interface NewUser {
  firstName: string
  lastName: string
  email?: string
}

const ADA: NewUser = { firstName: 'Ada', lastName: 'Lovelace' }

/** Signs a new user up in the browser (a new organisation with them): lands on the console. */
export async function signUp(page: Page, user: NewUser = ADA): Promise<void> {
  await openSignUp(page, user)
  await page.waitForURL(/\/console$/)
}

/** Opens the sign-up page (`search`: its query, e.g. `?next=…`), fills it in and sends it. */
export async function openSignUp(page: Page, user: NewUser = ADA, search = ''): Promise<void> {
  await page.goto(`/console/auth/signup${search}`)
  await settled(page)
  await submitSignUp(page, user)
}

/** Fills the sign-up form the page shows and sends it. */
export async function submitSignUp(page: Page, user: NewUser = ADA): Promise<void> {
  await page.fill('#firstName', user.firstName)
  await page.fill('#lastName', user.lastName)
  await page.fill('#email', user.email ?? uniqueEmail())
  await page.fill('#password', PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
}

/** The signed-in user's first organisation (after a sign-up, their own). */
export async function firstOrganisation(page: Page): Promise<{ _id: string; cloudName: string }> {
  const orgs = await page.evaluate(async () => {
    const response = await fetch('/service/panel/organization/v1.0/all')
    return (await response.json()) as { _id: string; cloudName: string }[]
  })
  const org = orgs[0]
  if (org === undefined) throw new Error('no organisation after sign-up')
  return org
}

/**
 * A signed panel call (POST) with the page's session, as the console makes it: changes need the
 * x-ebg-* signature, made with the key the page was given.
 */
export async function panelPost(page: Page, serverUrl: string, path: string, body: unknown) {
  const key = await page.evaluate(
    () =>
      (window as unknown as { __TESSERA_CONFIG__: { panelSigningKey: string } }).__TESSERA_CONFIG__
        .panelSigningKey,
  )
  const text = JSON.stringify(body)
  const url = `${serverUrl}${path}`
  const headers = await signRequest({ method: 'POST', url, body: text }, key)
  const response = await page.context().request.post(url, {
    data: text,
    headers: { ...headers, 'content-type': 'application/json' },
  })
  if (!response.ok()) {
    throw new Error(`${path} answered ${response.status()}: ${await response.text()}`)
  }
}

/** `expect.poll` waiting up to `timeout` ms unless told otherwise (its own 1 s is too short here). */
export function pollWithin(timeout: number) {
  return <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
    expect.poll(read, { timeout, ...options })
}

/**
 * Console errors and page errors, without the logged-out session check that every anonymous page
 * makes (SPEC §8 logs each failed call) and the `allowed` ones a test provokes on purpose.
 */
export function watchUnexpectedErrors(page: Page, allowed: RegExp[] = []): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const text = message.text()
    if (/\/users\/v1\.0\/session|status of 401/.test(text)) return
    if (allowed.some((pattern) => pattern.test(text))) return
    errors.push(text)
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

/** The names of the analytics events the page has pushed to its data layer, in order. */
export function dataLayerEvents(page: Page): Promise<(string | undefined)[]> {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).map(
      (entry) => entry.event,
    ),
  )
}

/** How many pixels the page is wider than the window (0 when nothing sticks out). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
}

/** Whether anything is wider than the window. */
export async function overflows(page: Page): Promise<boolean> {
  return (await horizontalOverflow(page)) > 0
}

/** The path of one of the demo's sample images (apps/server/demo/samples). */
export function samplePath(name: string): string {
  return fileURLToPath(new URL(`../../server/demo/samples/${name}`, import.meta.url))
}

/** The bytes of one of the demo's sample images. */
export function sampleFile(name: string): Promise<Buffer> {
  return readFile(samplePath(name))
}

/** Chooses a sample image (as a png) in the page's file input, as a visitor picking a file. */
export async function chooseSample(page: Page, name: string): Promise<void> {
  await page
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'image/png', buffer: await sampleFile(name) })
}
