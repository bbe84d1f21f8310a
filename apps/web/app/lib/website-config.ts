// The CMS site configuration with SPEC §4's cache rule and SPEC §8's fallback.
import type { WebsiteConfig } from './api.ts'

export const WEBSITE_CONFIG_TTL_MS = 60_000

export interface CachedWebsiteConfig {
  value: WebsiteConfig
  fetchedAt: number
}

/** Fresh for under 60 seconds, and only when both lists have more than one entry. */
export function isWebsiteConfigFresh(cache: CachedWebsiteConfig | undefined, now: number): boolean {
  if (cache === undefined) return false
  return (
    now - cache.fetchedAt < WEBSITE_CONFIG_TTL_MS &&
    cache.value.socialMediaLinks.length > 1 &&
    cache.value.footerBadgeList.length > 1
  )
}

/**
 * The site configuration: the cached one while fresh, else a new fetch; when the fetch fails,
 * empty social links and the badges already known (SPEC §8).
 */
export async function resolveWebsiteConfig(
  cache: CachedWebsiteConfig | undefined,
  fetchConfig: () => Promise<WebsiteConfig>,
  now: number,
): Promise<CachedWebsiteConfig> {
  if (cache !== undefined && isWebsiteConfigFresh(cache, now)) return cache
  try {
    return { value: await fetchConfig(), fetchedAt: now }
  } catch {
    return {
      value: { socialMediaLinks: [], footerBadgeList: cache?.value.footerBadgeList ?? [] },
      fetchedAt: cache?.fetchedAt ?? 0,
    }
  }
}
