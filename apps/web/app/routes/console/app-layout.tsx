import { data, NavLink, Outlet, useLoaderData } from 'react-router'
import { ConsoleProvider } from '../../components/console/console-context.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { ORG_COOKIE, pickOrganization, readCookie } from '../../lib/console-org.ts'
import type { Route } from './+types/app-layout.ts'
import { requireConsoleUser } from './console.server.ts'
import './console-app.css'
import './console-library.css'
import './console-pages.css'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, organizations } = await requireConsoleUser(request, context)
  const fromPath = 'orgId' in params ? (params.orgId as string | undefined) : undefined
  const org = pickOrganization(
    organizations,
    fromPath,
    readCookie(request.headers.get('cookie'), ORG_COOKIE),
  )
  if (org === undefined && fromPath !== undefined) {
    throw data('No such organisation', { status: 404 })
  }
  return { user, organizations, org: org ?? null }
}

export type ConsoleLayoutData = Awaited<ReturnType<typeof loader>>

function Nav({ orgId }: { orgId: string }) {
  const org = `/console/organization/${encodeURIComponent(orgId)}`
  const links: [string, string, boolean][] = [
    ['/console', 'Home', true],
    ['/console/editor', 'Media library', true],
    ['/console/editor/upload', 'Upload', true],
    ['/console/editor/url', 'From URL', true],
    [`${org}/presets`, 'Presets', false],
    [`${org}/playground`, 'Playground', false],
    [`${org}/billing/plans/subscription`, 'Billing', false],
    [`${org}/activity`, 'Activity', false],
    [`${org}/settings/organization`, 'Settings', false],
  ]
  return (
    <nav className="console-nav" aria-label="Console">
      <ul>
        {links.map(([to, label, end]) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              // The playground is another team's page; a full load keeps it independent.
              reloadDocument={label === 'Playground'}
              className={({ isActive }) => (isActive ? 'is-active' : undefined)}
            >
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** The signed-in console: navigation beside the page, for the organisation being worked in. */
export default function ConsoleAppLayout() {
  const { user, organizations, org } = useLoaderData<typeof loader>()
  if (org === null) {
    return (
      <div className="console-panel" data-testid="no-organisation">
        <h1>Welcome, {user.firstName}</h1>
        <p className="lead">You are not a member of any organisation yet.</p>
        <p>Ask an owner to invite you, then open the link of the invitation.</p>
      </div>
    )
  }
  return (
    <ConsoleProvider user={user} organizations={organizations} org={org}>
      <div className="console-app">
        <Nav orgId={org._id} />
        <div className="console-page">
          <Outlet />
        </div>
      </div>
    </ConsoleProvider>
  )
}

export const ErrorBoundary = RouteErrorBoundary
