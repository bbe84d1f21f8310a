// The web benchmark's settings (web.bench.ts), read once from the environment: what Chromium,
// Lighthouse and the throughput runs are given, and the targets the results are held to.
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
/** As in shared/reference/stack-feasibility.md: headless, no sandbox (root in a container). */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
export type Category = (typeof CATEGORIES)[number]
/** `BENCH_WEB_THROUGHPUT_ONLY=1`: no Lighthouse, only the page throughput runs. */
export const THROUGHPUT_ONLY = process.env.BENCH_WEB_THROUGHPUT_ONLY === '1'
export const PRESETS = (
  THROUGHPUT_ONLY ? [] : listSetting('BENCH_WEB_PRESETS', ['mobile', 'desktop'])
) as Preset[]
export type Preset = 'mobile' | 'desktop'
export const PAGES = listSetting('BENCH_WEB_PAGES', [
  '/',
  '/pricing',
  '/ai-tools',
  '/playground',
  '/ai-tools/background-remover',
  '/docs/getting-started',
])
export const RUNS = wholeSetting('BENCH_WEB_RUNS', 3, 1, 9)
export const SECONDS = wholeSetting('BENCH_SECONDS', 10, 1, 60)
export const WARMUP_SECONDS = 2
/** Connections of the throughput runs: enough to keep a 1-thread server busy. */
export const CONNECTIONS = 10

export const TARGETS = { score: 95, homeJsGzipKb: 150 }

export function listSetting(name: string, fallback: string[]): string[] {
  const value = process.env[name]
  if (value === undefined || value.trim() === '') return fallback
  const list = value.split(',').map((item) => item.trim())
  if (
    name === 'BENCH_WEB_PRESETS' &&
    list.some((item) => item !== 'mobile' && item !== 'desktop')
  ) {
    throw new RangeError(`${name} takes mobile and/or desktop, got '${value}'`)
  }
  return list
}

export function wholeSetting(name: string, fallback: number, min: number, max: number): number {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got '${value}'`)
  }
  return number
}
