import { Link, Outlet, useLocation } from 'react-router'
import { Logo } from '../../components/icons.tsx'
import { readAuthFlow } from '../../lib/auth-redirect.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/layout.ts'
import './console.css'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Console', noIndex: true })

/** The console's frame: a slim bar and a centred column (no website header or footer). */
export default function ConsoleLayout() {
  const location = useLocation()
  const isolated = readAuthFlow(location.search).isolateFlow
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
        {isolated ? null : (
          <Link to="/" className="console-back" reloadDocument>
            Back to website
          </Link>
        )}
      </header>
      <main id="main" className="console-main">
        <Outlet />
      </main>
    </div>
  )
}
