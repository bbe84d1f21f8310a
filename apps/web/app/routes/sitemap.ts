import { serverApi } from '../lib/api.server.ts'
import { getDynamicApps, getPredictions, getProductSections } from '../lib/api.ts'
import { DOCS_PAGES } from '../lib/docs-nav.ts'
import { allOperationDocs } from '../lib/operation-docs.ts'
import { sitemapPaths, sitemapXml } from '../lib/site-routes.ts'
import type { Route } from './+types/sitemap.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const [sections, apps, predictions] = await Promise.all([
    getProductSections(api.client, api.config),
    getDynamicApps(api.client, api.config, { tags: 'ai-tools', pageNo: 1, pageSize: 100 }).catch(
      () => ({ items: [] }),
    ),
    getPredictions(api.client, api.config).catch(() => []),
  ])
  const paths = sitemapPaths({
    useCases: sections.map((section) => section.sectionId),
    appSlugs: apps.items.map((app) => app.slug),
    docsPaths: [
      ...DOCS_PAGES.map((page) => page.path),
      ...allOperationDocs().map((doc) => doc.docPath),
    ],
    predictionIds: predictions.map((prediction) => prediction.id),
  })
  const base = api.config.mainUrl === '' ? api.origin : api.config.mainUrl
  return new Response(sitemapXml(base, paths), {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    },
  })
}
