// The website's layout (SPEC §2.4): header and footer, hidden on the playground and inside the
// mobile app; top padding except on the full-bleed pages.
import { Outlet, useLocation, useRouteLoaderData } from 'react-router'
import { Footer } from '../components/footer.tsx'
import { Header } from '../components/header.tsx'
import {
  hasTopPadding,
  isFooterHidden,
  isHeaderHidden,
  readHideInApp,
} from '../lib/layout-rules.ts'
import type { loader as rootLoader } from '../root.tsx'

export default function SiteLayout() {
  const location = useLocation()
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const hideInApp = readHideInApp(location.search)
  const headerHidden = isHeaderHidden(location.pathname, hideInApp)
  // The padding makes room for the fixed header: none where the header is hidden.
  const padded = hasTopPadding(location.pathname, hideInApp) && !headerHidden
  return (
    <>
      {headerHidden ? null : <Header />}
      <main id="main" className={`site-main${padded ? ' has-top-padding' : ''}`} data-testid="main">
        <Outlet />
      </main>
      {isFooterHidden(location.pathname, hideInApp) || root === undefined ? null : (
        <Footer website={root.website} year={root.year} />
      )}
    </>
  )
}
