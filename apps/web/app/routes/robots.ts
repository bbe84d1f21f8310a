import { runtimeConfig } from '../lib/api.server.ts'
import type { Route } from './+types/robots.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  const config = runtimeConfig(context)
  const base = config.mainUrl === '' ? new URL(request.url).origin : config.mainUrl
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /console',
    'Disallow: /page-not-found',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    },
  })
}
