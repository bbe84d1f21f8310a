import { describe, expect, it } from 'vitest'
import type { WebsiteConfig } from './api.ts'
import {
  isWebsiteConfigFresh,
  resolveWebsiteConfig,
  WEBSITE_CONFIG_TTL_MS,
} from './website-config.ts'

const full: WebsiteConfig = {
  socialMediaLinks: [
    { identifier: 'discord', link: 'https://d' },
    { identifier: 'youtube', link: 'https://y' },
  ],
  footerBadgeList: [
    { badgeName: 'A', badgeUrl: '/a.png' },
    { badgeName: 'B', badgeUrl: '/b.png' },
  ],
}

describe('website configuration cache (SPEC §4, §8)', () => {
  it('is fresh for under 60 seconds when both lists have more than one entry', () => {
    const cache = { value: full, fetchedAt: 1000 }
    expect(isWebsiteConfigFresh(cache, 1000 + WEBSITE_CONFIG_TTL_MS - 1)).toBe(true)
    expect(isWebsiteConfigFresh(cache, 1000 + WEBSITE_CONFIG_TTL_MS)).toBe(false)
  })

  it('is never fresh with one entry or fewer in either list', () => {
    const thin = { ...full, footerBadgeList: full.footerBadgeList.slice(0, 1) }
    expect(isWebsiteConfigFresh({ value: thin, fetchedAt: 0 }, 1)).toBe(false)
    expect(isWebsiteConfigFresh(undefined, 1)).toBe(false)
  })

  it('answers from the cache while fresh, without fetching', async () => {
    const cache = { value: full, fetchedAt: 0 }
    const result = await resolveWebsiteConfig(cache, () => Promise.reject(new Error('no call')), 10)
    expect(result).toBe(cache)
  })

  it('fetches again once stale', async () => {
    const fresh = { ...full, lastUpdated: 'now' }
    const result = await resolveWebsiteConfig(
      { value: full, fetchedAt: 0 },
      async () => fresh,
      60_000,
    )
    expect(result).toEqual({ value: fresh, fetchedAt: 60_000 })
  })

  it('falls back to empty social links and keeps the badges it had when the fetch fails', async () => {
    const result = await resolveWebsiteConfig(
      { value: full, fetchedAt: 0 },
      () => Promise.reject(new Error('CMS down')),
      120_000,
    )
    expect(result.value).toEqual({ socialMediaLinks: [], footerBadgeList: full.footerBadgeList })
  })
})
