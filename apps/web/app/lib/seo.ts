// SPEC §2.4 head tags: title, description, canonical link and share tags built from the main
// domain plus the current path.
import type { MetaDescriptor } from 'react-router'

export const SITE_NAME = 'Tessera'
export const DEFAULT_DESCRIPTION =
  'Store, transform, optimise and deliver images by URL: a self-hostable image service with AI tools, presets and a playground.'
/** The share image: a product shot served by our own delivery. */
export const SHARE_IMAGE_PATH = '/v2/demo/t.resize(w:1200,h:630)/samples/hubble_deep_field.jpg'

export interface PageMeta {
  title: string
  description?: string
  /** Path of the page (query excluded), e.g. `/pricing`. */
  path: string
  /** Absolute base of canonical and share URLs (the main domain). */
  mainUrl: string
  image?: string
  noIndex?: boolean
}

/** The full head-tag set of one page. */
export function pageMeta(page: PageMeta): MetaDescriptor[] {
  const title = page.title === SITE_NAME ? SITE_NAME : `${page.title} | ${SITE_NAME}`
  const description = page.description ?? DEFAULT_DESCRIPTION
  const base = page.mainUrl.replace(/\/+$/, '')
  const url = `${base}${page.path}`
  const image = page.image ?? `${base}${SHARE_IMAGE_PATH}`
  return [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:type', content: 'website' },
    { property: 'og:locale', content: 'en_US' },
    { property: 'og:site_name', content: SITE_NAME },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    ...(page.noIndex === true ? [{ name: 'robots', content: 'noindex' }] : []),
  ]
}

interface MatchLike {
  id: string
  loaderData?: unknown
}

/** The main domain from the root loader's data, as every route's `meta` sees it. */
export function mainUrlFrom(matches: readonly (MatchLike | undefined)[]): string {
  const root = matches.find((match) => match?.id === 'root')?.loaderData as
    | { mainUrl?: string }
    | undefined
  return root?.mainUrl ?? ''
}

/** Shorthand for a route's `meta`: the page's tags from its title and description. */
export function metaFor(
  args: { location: { pathname: string }; matches: readonly (MatchLike | undefined)[] },
  page: Omit<PageMeta, 'path' | 'mainUrl'>,
): MetaDescriptor[] {
  return pageMeta({ ...page, path: args.location.pathname, mainUrl: mainUrlFrom(args.matches) })
}
