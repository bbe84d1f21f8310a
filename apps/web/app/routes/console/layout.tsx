import { Link, Outlet, useLocation, useRouteLoaderData } from 'react-router'
import { OrgSwitcher } from '../../components/console/org-switcher.tsx'
import { Logo } from '../../components/icons.tsx'
import { readAuthFlow } from '../../lib/auth-redirect.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/layout.ts'
import type { ConsoleLayoutData } from './app-layout.tsx'
import './console.css'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Console', noIndex: true })

/** The console's frame: a slim bar and a centred column (no website header or footer). */
export default function ConsoleLayout() {
  const location = useLocation()
  const isolated = readAuthFlow(location.search).isolateFlow
  const app = useRouteLoaderData('routes/console/app-layout') as ConsoleLayoutData | undefined
  return (
    <div className="console">
      <header className="console-bar">
        {isolated ? (
          <span className="site-logo">
            <Logo /> <span>Tessera</span>
          </span>
        ) : (
          <Link to="/console" className="site-logo" reloadDocument>
            <Logo /> <span>Tessera</span> <span className="pill">Console</span>
          </Link>
        )}
        <div className="console-bar-end">
          {app?.org ? (
            <OrgSwitcher organizations={app.organizations} current={app.org._id} />
          ) : null}
          {isolated ? null : (
            <Link to="/" className="console-back" reloadDocument>
              Back to website
            </Link>
          )}
        </div>
      </header>
      <main id="main" className="console-main">
        <Outlet />
      </main>
    </div>
  )
}
