import { useLocation, useRouteLoaderData } from 'react-router'
import type { PageLocation } from '../lib/links.ts'

/** The page's location with an absolute href that is the same on the server and the client. */
export function usePageLocation(): PageLocation {
  const location = useLocation()
  const root = useRouteLoaderData('root') as { origin?: string } | undefined
  const origin = root?.origin ?? 'http://localhost'
  return {
    pathname: location.pathname,
    search: location.search,
    href: `${origin}${location.pathname}${location.search}`,
  }
}
