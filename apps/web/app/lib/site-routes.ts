// The pages of SPEC §2.1 as the sitemap lists them: every route but /page-not-found.

/** Pages without parameters, in the order the sitemap lists them. */
export const STATIC_PAGES = [
  '/',
  '/products',
  '/features',
  '/pricing',
  '/ai-tools',
  '/tools',
  '/api',
  '/api/plugin',
  '/playground',
  '/docs',
  '/predictions',
  '/faqs',
  '/about-us',
  '/contactus',
  '/privacy-policy',
  '/terms-of-use',
] as const

export const EXCLUDED_FROM_SITEMAP = ['/page-not-found'] as const

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (char) =>
      ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char] ?? char,
  )

/**
 * The sitemap's paths: the static pages, then each use case, AI tool and app page, every page of
 * the documentation site (paths under `/docs`) and each prediction.
 */
export function sitemapPaths(dynamic: {
  useCases: string[]
  appSlugs: string[]
  docsPaths?: string[]
  predictionIds?: string[]
}): string[] {
  const paths = [
    ...STATIC_PAGES,
    ...dynamic.useCases.map((id) => `/usecase/${encodeURIComponent(id)}`),
    ...dynamic.appSlugs.map((slug) => `/ai-tools/${encodeURIComponent(slug)}`),
    ...dynamic.appSlugs.map((slug) => `/apps/${encodeURIComponent(slug)}`),
    ...(dynamic.docsPaths ?? []).map((path) => `/docs${path}`),
    ...(dynamic.predictionIds ?? []).map((id) => `/predictions/${encodeURIComponent(id)}`),
  ]
  return [...new Set(paths)].filter(
    (path) => !(EXCLUDED_FROM_SITEMAP as readonly string[]).includes(path),
  )
}

/** The sitemap document (sitemaps.org 0.9). */
export function sitemapXml(mainUrl: string, paths: string[]): string {
  const base = mainUrl.replace(/\/+$/, '')
  const urls = paths.map((path) => `  <url><loc>${escapeXml(`${base}${path}`)}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}
