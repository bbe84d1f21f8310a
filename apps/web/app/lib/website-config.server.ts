import type { ServerApi } from './api.server.ts'
import { fetchWebsiteConfig } from './api.ts'
import { type CachedWebsiteConfig, resolveWebsiteConfig } from './website-config.ts'

// One process-wide copy: the footer of every page reads it, the CMS is asked at most once a
// minute while the answer is complete.
let cached: CachedWebsiteConfig | undefined

export async function siteConfiguration(api: ServerApi) {
  cached = await resolveWebsiteConfig(
    cached,
    () => fetchWebsiteConfig(api.client, api.config),
    Date.now(),
  )
  return cached.value
}
