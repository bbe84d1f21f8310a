// What `npm test` needs on a fresh machine, checked once before any test runs (the root Vitest
// config's global setup): a PostgreSQL server for the database suites and Chromium for the browser
// suites. A missing one fails the run at once with one line saying how to get it, instead of a
// hundred failing tests.
import { existsSync } from 'node:fs'
import { connect } from 'node:net'

export interface Prerequisites {
  /** The admin connection of the PostgreSQL suites (TEST_DATABASE_URL). */
  databaseUrl: string
  /** The Chromium binary of the browser suites (CHROME_PATH). */
  chromePath: string
  /** How long to wait for PostgreSQL to accept a connection. */
  timeoutMs?: number
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres'
/** Debian's Chromium built as Playwright's headless shell (package chromium-headless-shell). */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell'
/** Debian's full Chromium (package chromium). */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * The browser the suites drive when CHROME_PATH is not set: the headless shell when it is
 * installed (the same Chromium without the browser's own window code: about 40 % less CPU for
 * the same 202 browser tests, decision 012), else the full Chromium.
 */
export function defaultChromePath(exists: (path: string) => boolean = existsSync): string {
  return exists(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH
}

/** Whether something accepts TCP connections at host:port within the time limit. */
function listening(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/** What is missing, each with the command that installs or starts it; empty when all is there. */
export async function missingPrerequisites(needs: Prerequisites): Promise<string[]> {
  const missing: string[] = []
  const url = new URL(needs.databaseUrl)
  const host = url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1'
  const port = Number(url.port || 5432)
  if (!(await listening(host, port, needs.timeoutMs ?? 2000))) {
    missing.push(
      `PostgreSQL at ${host}:${port} (start it: pg_ctlcluster --skip-systemctl-redirect 15 main start; or set TEST_DATABASE_URL)`,
    )
  }
  if (!existsSync(needs.chromePath)) {
    missing.push(
      `Chromium at ${needs.chromePath} (install it: apt-get update && apt-get install -y chromium-headless-shell; or set CHROME_PATH)`,
    )
  }
  return missing
}

/** The one line `npm test` prints when something is missing. */
export function missingMessage(missing: readonly string[]): string {
  return `npm test needs ${missing.join(' and ')}`
}

/** Vitest global setup: stops the run before any test when a prerequisite is missing. */
export default async function setup(): Promise<void> {
  const missing = await missingPrerequisites({
    databaseUrl: process.env.TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    chromePath: process.env.CHROME_PATH ?? defaultChromePath(),
  })
  if (missing.length > 0) {
    // One line and out: Vitest would otherwise bury a setup error under its own report.
    process.stderr.write(`${missingMessage(missing)}\n`)
    process.exit(1)
  }
}
