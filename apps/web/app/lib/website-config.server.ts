import type { ServerApi } from './api.server.ts'
import { fetchWebsiteConfig } from './api.ts'
import { type CachedWebsiteConfig, resolveWebsiteConfig } from './website-config.ts'

// One copy per server in the process (a test process runs several, each with its own delivery
// base in the configuration's image URLs): the footer of every page reads it, the CMS is asked
// at most once a minute while the answer is complete. Keyed by the runtime configuration object,
// which each server makes once; a server that is gone takes its entry with it.
const cached = new WeakMap<object, CachedWebsiteConfig>()

export async function siteConfiguration(api: ServerApi) {
  const next = await resolveWebsiteConfig(
    cached.get(api.config),
    () => fetchWebsiteConfig(api.client, api.config),
    Date.now(),
  )
  cached.set(api.config, next)
  return next.value
}
