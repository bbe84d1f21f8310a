// The calls of SPEC §7.2, each with the answer handling the SPEC gives it. They work in the
// browser and in loaders alike: the caller brings the client.
import { PANEL_API_PATHS, PUBLIC_API_PATHS } from '@tessera/url'
import type { HttpClient } from './http-client.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'
import type { SessionUser } from './session.ts'

export const USERS = PANEL_API_PATHS.users
export const ORGANIZATIONS = PANEL_API_PATHS.organization
export const BILLING = PANEL_API_PATHS.billing
export const APPS = PUBLIC_API_PATHS.apps
export const PREDICTIONS = `${PUBLIC_API_PATHS.transformation}/predictions`

export interface Page {
  current?: number
  size?: number
  hasNext: boolean
  itemTotal?: number
}

export interface Organization {
  _id: string
  name?: string
  cloudName?: string
  role?: string
  plan?: { name?: string } | string
  credits?: number | { available?: number; total?: number }
}

export interface Feature {
  name?: string
  displayName?: string
  value: number | string | boolean
  unit?: string
}

export interface Plan {
  _id: number
  name: string
  description?: string
  amount: number
  currency?: string
  interval?: string
  credits?: number
  features: Record<string, Feature>
}

export type Addon = Omit<Plan, 'interval'>

export interface DynamicApp {
  _id?: string
  slug: string
  tags?: string[]
  config: {
    title: string
    description: string
    thumbnailURL: string
    isFeatured?: boolean
    url?: string
    transformation?: string
  }
  createdAt?: string
}

export interface SocialLink {
  identifier: string
  link: string
}

export interface FooterBadge {
  badgeName: string
  badgeUrl: string
}

export interface WebsiteConfig {
  socialMediaLinks: SocialLink[]
  footerBadgeList: FooterBadge[]
  lastUpdated?: string
}

export interface ProductSection {
  sectionId: string
  header: { title: string; description: string }
  cards: { title: string; description: string; image: string; link: string }[]
}

export interface Announcement {
  id: number
  title: string
  description: string
  link?: string
  linkText?: string
  startsAt?: string
}

export interface Prediction {
  id: string
  displayName?: string
  description?: string
  operation?: string
  thumbnailURL?: string
}

const api = (config: RuntimeConfig, path: string) => joinUrl(config.apiUrl, path)

/**
 * Where a call that a page gives up on is written: the server's log under the visitor's request
 * id in loaders (`serverApi(...).log`), the console in the browser.
 */
export type FailureLog = (message: string, details: { err: unknown }) => void

const consoleLog: FailureLog = (message, details) => {
  console.error(message, details)
}

/** The session check: 200 gives the user; anything else rejects. */
export async function getSession(client: HttpClient, config: RuntimeConfig): Promise<SessionUser> {
  const answer = await client.request<{ session: { passport: { user: SessionUser } } }>(
    api(config, `${USERS}/session`),
  )
  return answer.session.passport.user
}

export function patchProfileMeta(
  client: HttpClient,
  config: RuntimeConfig,
  meta: Record<string, unknown>,
): Promise<unknown> {
  return client.request(api(config, `${USERS}/profile/meta`), { method: 'PATCH', body: meta })
}

export interface Credentials {
  email: string
  password: string
}

export async function login(client: HttpClient, config: RuntimeConfig, input: Credentials) {
  return client.request<{ user: SessionUser }>(api(config, `${USERS}/auth/login`), {
    method: 'POST',
    body: input,
  })
}

export async function signup(
  client: HttpClient,
  config: RuntimeConfig,
  input: Credentials & { firstName: string; lastName: string },
) {
  return client.request<{ user: SessionUser }>(api(config, `${USERS}/auth/signup`), {
    method: 'POST',
    body: input,
  })
}

export async function logout(client: HttpClient, config: RuntimeConfig): Promise<void> {
  await client.request(api(config, `${USERS}/auth/logout`), { method: 'POST' })
}

/** The user's organisations, the active one first; null on any failure (SPEC §8). */
export async function getOrganizations(
  client: HttpClient,
  config: RuntimeConfig,
): Promise<Organization[] | null> {
  try {
    const list = await client.request<unknown>(api(config, `${ORGANIZATIONS}/all`))
    return Array.isArray(list) ? (list as Organization[]) : null
  } catch {
    return null
  }
}

/**
 * Items per page asked of the plan and addon lists: the server's largest, so a page view makes
 * one call per list (the loop on `hasNext` stays, as SPEC §7.2 has it).
 */
export const BILLING_PAGE_SIZE = 100

/** Follows `page.hasNext` from page 1, collecting every item (SPEC §7.2). */
export async function collectPages<T>(
  fetchPage: (pageNo: number) => Promise<{ items: T[]; page: Page }>,
  maxPages = 100,
): Promise<T[]> {
  const items: T[] = []
  for (let pageNo = 1; pageNo <= maxPages; pageNo++) {
    const answer = await fetchPage(pageNo)
    items.push(...answer.items)
    if (!answer.page.hasNext) break
  }
  return items
}

export interface PlansByInterval {
  freePlan: Plan | null
  monthlyPlans: Plan[]
  yearlyPlans: Plan[]
}

/** Free plan by its configured id; yearly = interval starting with `yearly`; by amount. */
export function splitPlans(plans: Plan[], freePlanId: number): PlansByInterval {
  const byAmount = [...plans].sort((a, b) => a.amount - b.amount)
  const paid = byAmount.filter((plan) => plan._id !== freePlanId)
  return {
    freePlan: byAmount.find((plan) => plan._id === freePlanId) ?? null,
    monthlyPlans: paid.filter((plan) => !(plan.interval ?? '').startsWith('yearly')),
    yearlyPlans: paid.filter((plan) => (plan.interval ?? '').startsWith('yearly')),
  }
}

/** Plans, split; rejects with null on failure (SPEC §8), the cause written to `log` first. */
export async function getPlans(
  client: HttpClient,
  config: RuntimeConfig,
  log: FailureLog = consoleLog,
): Promise<PlansByInterval> {
  try {
    const plans = await collectPages((pageNo) =>
      client.request<{ items: Plan[]; page: Page }>(
        api(
          config,
          `${BILLING}/plans?custom=false&tag=${encodeURIComponent(config.productTag)}&pageNo=${pageNo}&pageSize=${BILLING_PAGE_SIZE}`,
        ),
      ),
    )
    return splitPlans(plans, config.freePlanId)
  } catch (error) {
    log('The plans could not be loaded', { err: error })
    throw null
  }
}

/** Addons by amount; rejects with null on failure (SPEC §8), the cause written to `log` first. */
export async function getAddons(
  client: HttpClient,
  config: RuntimeConfig,
  log: FailureLog = consoleLog,
): Promise<Addon[]> {
  try {
    const addons = await collectPages((pageNo) =>
      client.request<{ items: Addon[]; page: Page }>(
        api(
          config,
          `${BILLING}/addons?custom=false&tag=${encodeURIComponent(config.productTag)}&pageNo=${pageNo}&pageSize=${BILLING_PAGE_SIZE}`,
        ),
      ),
    )
    return addons.sort((a, b) => a.amount - b.amount)
  } catch (error) {
    log('The addons could not be loaded', { err: error })
    throw null
  }
}

export async function getDynamicApp(
  client: HttpClient,
  config: RuntimeConfig,
  slug: string,
): Promise<DynamicApp> {
  if (slug === '') throw new Error('No slug provided')
  return client.request<DynamicApp>(api(config, `${APPS}/dynamicApps/${encodeURIComponent(slug)}`))
}

export interface AppListQuery {
  tags?: string
  pageNo: number
  pageSize: number
  sortBy?: 'createdAt' | 'title'
  sortOrder?: 'asc' | 'desc'
  searchQuery?: string
}

export async function getDynamicApps(
  client: HttpClient,
  config: RuntimeConfig,
  query: AppListQuery,
): Promise<{ items: DynamicApp[]; page: Page }> {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value))
  }
  return client.request(api(config, `${APPS}/dynamicApps?${params}`))
}

export async function getPredictions(
  client: HttpClient,
  config: RuntimeConfig,
): Promise<Prediction[]> {
  const answer = await client.request<Prediction[] | { items: Prediction[] }>(
    api(config, PREDICTIONS),
  )
  return Array.isArray(answer) ? answer : answer.items
}

/** Product sections of the CMS; an empty list on any failure (SPEC §8). */
export async function getProductSections(
  client: HttpClient,
  config: RuntimeConfig,
): Promise<ProductSection[]> {
  try {
    const answer = await client.request<{ data: { attributes: ProductSection }[] }>(
      joinUrl(config.cmsUrl, '/api/product-sections?populate=*'),
    )
    return answer.data.map((entry) => entry.attributes)
  } catch {
    return []
  }
}

/** The CMS site configuration (data[0].attributes); throws on failure. */
export async function fetchWebsiteConfig(
  client: HttpClient,
  config: RuntimeConfig,
): Promise<WebsiteConfig> {
  const query = `filters[searchTag]=${encodeURIComponent(config.productTag)}&populate=socialMediaLinks&populate=footerBadgeList`
  const answer = await client.request<{ data: { attributes: Partial<WebsiteConfig> }[] }>(
    joinUrl(config.cmsUrl, `/api/websites?${query}`),
  )
  const attributes = answer.data[0]?.attributes
  if (attributes === undefined) throw new Error('No site configuration for this product tag')
  return {
    socialMediaLinks: attributes.socialMediaLinks ?? [],
    footerBadgeList: attributes.footerBadgeList ?? [],
    ...(attributes.lastUpdated === undefined ? {} : { lastUpdated: attributes.lastUpdated }),
  }
}

export async function getAnnouncements(
  client: HttpClient,
  config: RuntimeConfig,
): Promise<Announcement[]> {
  try {
    const answer = await client.request<{ items: Announcement[] }>(
      joinUrl(config.mainUrl, PUBLIC_API_PATHS.announcements),
    )
    return answer.items
  } catch {
    return []
  }
}
