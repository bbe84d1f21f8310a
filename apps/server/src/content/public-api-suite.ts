import { beforeAll, expect } from 'vitest'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { type DynamicApp, loadContent } from './content.ts'

export const BILLING = '/service/panel/billing/v1.0'
export const APPS = '/service/public/apps/v1.0'
export const PREDICTIONS = '/service/public/transformation/v1.0/predictions'
export const PRODUCT_TAG = 'tessera'

/** Strings that would change an SQL query or a LIKE pattern if they were ever spliced in. */
export const HOSTILE = [
  "' OR '1'='1",
  "tessera' --",
  "'; drop table plans; --",
  '" OR ""="',
  '%',
  '_',
  'tessera%',
  '\\',
  '{tessera}',
  "ARRAY['tessera']",
  '1) OR (1=1',
  '$1',
  '*',
  '.*',
  '../../etc/passwd',
  '<script>alert(1)</script>',
]

/** The hostile strings that can be a path segment (encoded / and \\ are refused before routing). */
export const HOSTILE_SEGMENTS = HOSTILE.filter(
  (text) => !text.includes('/') && !text.includes('\\'),
)

export interface Page {
  current: number
  size: number
  hasNext: boolean
  itemTotal: number
  type: string
}
export interface Feature {
  name: string
  displayName: string
  value: string | number | boolean
}
export interface PlanItem {
  _id: number
  name: string
  amount: number
  interval: string
  credits: number
  currency: string
  custom: boolean
  tags: string[]
  features: Record<string, Feature>
}
export interface AppItem {
  _id: string
  slug: string
  tags: string[]
  /** The app's content record, as the answer carries it. */
  config: Pick<
    DynamicApp,
    | 'title'
    | 'description'
    | 'thumbnailURL'
    | 'isFeatured'
    | 'url'
    | 'transformation'
    | 'operations'
  >
  createdAt: string
}

export const content = await loadContent()

/** Starts a server and gives the anonymous reads the public content tests make. */
export function usePublicApiSuite(kind: TestDatabaseKind) {
  let get: (path: string) => Promise<Response>
  let getJson: <T>(path: string) => Promise<{ status: number; body: T; response: Response }>

  const suite = useTestServer(kind)

  beforeAll(async () => {
    get = (path) => fetch(`${suite.server.url}${path}`)
    getJson = async <T>(path: string) => {
      const response = await get(path)
      return {
        status: response.status,
        body: (await response.json()) as T,
        response,
      }
    }
  })

  async function expectBadQuery(path: string, mentions?: string) {
    const { status, body, response } = await getJson<{
      code: string
      message: string
    }>(path)
    expect(status, path).toBe(400)
    expect(body.code, path).toBe('invalid_query')
    expect(typeof body.message).toBe('string')
    if (mentions !== undefined) expect(body.message, path).toContain(mentions)
    expect(response.headers.get('content-type')).toContain('application/json')
  }

  /** The pricing client of SPEC §7.2: pageNo from 1, collect items while page.hasNext. */
  async function collect<T>(path: string, query: string) {
    const items: T[] = []
    const pages: Page[] = []
    for (let pageNo = 1; ; pageNo++) {
      const { status, body } = await getJson<{ items: T[]; page: Page }>(
        `${path}?${query}&pageNo=${pageNo}`,
      )
      expect(status).toBe(200)
      items.push(...body.items)
      pages.push(body.page)
      if (!body.page.hasNext) break
      expect(pageNo).toBeLessThan(50)
    }
    return { items, pages }
  }

  return {
    get server() {
      return suite.server
    },
    get get() {
      return get
    },
    get getJson() {
      return getJson
    },
    expectBadQuery,
    collect,
  }
}

export type PublicApiSuite = ReturnType<typeof usePublicApiSuite>
