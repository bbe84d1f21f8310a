// Lighthouse runs of the web benchmark (web.bench.ts) and the JavaScript each page loads.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig, type Result } from 'lighthouse'
import {
  CATEGORIES,
  type Category,
  CHROME_FLAGS,
  CHROME_PATH,
  type Preset,
} from './web-settings.ts'

export interface Run {
  scores: Record<Category, number>
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number }
  scripts: { url: string; transferSize: number; resourceSize: number }[]
  /** Audits of the four categories that scored below 1 (`id` → score). */
  failing: Map<string, { title: string; score: number }>
}

export interface NetworkItem {
  url: string
  resourceType?: string
  transferSize?: number
  resourceSize?: number
}

export async function lighthouseRun(
  url: string,
  preset: Preset,
  reports: string | undefined,
  name: string,
) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS })
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
      preset === 'desktop' ? desktopConfig : undefined,
    )
    if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`)
    const lhr = result.lhr
    if (lhr.runtimeError !== undefined) {
      throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    }
    if (reports !== undefined) await writeFile(join(reports, `${name}.json`), JSON.stringify(lhr))
    return summarise(lhr)
  } finally {
    chrome.kill()
  }
}

/**
 * Runs a Lighthouse run again once when it fails outright (headless Chromium here now and then
 * reports CHROME_INTERSTITIAL_ERROR for a page that answers 200); the retry is printed.
 */
export async function withRetry(run: () => Promise<Run>): Promise<Run> {
  try {
    return await run()
  } catch (error) {
    console.log(`  (retrying once after: ${(error as Error).message})`)
    return run()
  }
}

export function summarise(lhr: Result): Run {
  const scores = {} as Record<Category, number>
  const failing = new Map<string, { title: string; score: number }>()
  for (const category of CATEGORIES) {
    const entry = lhr.categories[category]
    if (entry?.score === null || entry === undefined) throw new Error(`no ${category} score`)
    scores[category] = Math.round(entry.score * 100)
    for (const ref of entry.auditRefs) {
      const audit = lhr.audits[ref.id]
      if (audit === undefined || audit.score === null || audit.score >= 1) continue
      if (ref.weight === 0 && audit.scoreDisplayMode !== 'metricSavings') continue
      failing.set(ref.id, { title: audit.title, score: audit.score })
    }
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
  const network = lhr.audits['network-requests']?.details
  const items = (network !== undefined && 'items' in network ? network.items : []) as NetworkItem[]
  const scripts = items
    .filter((item) => item.resourceType === 'Script')
    .map((item) => ({
      url: item.url,
      transferSize: item.transferSize ?? 0,
      resourceSize: item.resourceSize ?? 0,
    }))
  return {
    scores,
    metrics: {
      fcp: numeric('first-contentful-paint'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      si: numeric('speed-index'),
    },
    scripts,
    failing,
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

// ---------------------------------------------------------------------------------------------
// JavaScript per page.

export interface JsBytes {
  files: number
  raw: number
  transferred: number
  gzip: number
}

/** Every script file the page loaded (Lighthouse's network log), fetched again and gzipped. */
export async function jsBytes(scripts: Run['scripts']): Promise<JsBytes> {
  const unique = new Map(scripts.map((script) => [script.url, script]))
  let raw = 0
  let gzip = 0
  let transferred = 0
  for (const script of unique.values()) {
    const response = await fetch(script.url)
    if (!response.ok) throw new Error(`${script.url}: ${response.status}`)
    const data = Buffer.from(await response.arrayBuffer())
    raw += data.length
    gzip += gzipSync(data, { level: 6 }).length
    transferred += script.transferSize
  }
  return { files: unique.size, raw, transferred, gzip }
}

/** Inline `<script>` bytes of a page's HTML (runtime config, React Router's hydration data). */
export function inlineScriptBytes(html: string): { raw: number; gzip: number } {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? '')
    .join('')
  return { raw: Buffer.byteLength(inline), gzip: gzipSync(inline, { level: 6 }).length }
}
