import { Link } from 'react-router'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import type { Organization } from '../../lib/api.ts'
import { logout } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/home.ts'
import { requireConsoleUser } from './console.server.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Console', noIndex: true })

export async function loader({ request, context }: Route.LoaderArgs) {
  return requireConsoleUser(request, context)
}

function planName(org: Organization): string | undefined {
  if (typeof org.plan === 'string') return org.plan
  return org.plan?.name
}

function creditsOf(org: Organization): number | undefined {
  if (typeof org.credits === 'number') return org.credits
  return org.credits?.available
}

export default function ConsoleHome({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const session = useSession()
  const { user, organizations } = loaderData
  const active = organizations[0]
  // New organisations start on the free plan (SPEC §3, §9): until the organisation list carries
  // the plan and the balance, that is what the console shows for an organisation without them.
  const plan = active === undefined ? undefined : (planName(active) ?? 'Free')
  const credits = active === undefined ? undefined : (creditsOf(active) ?? config.freePlanCredits)
  const signOut = async () => {
    try {
      await logout(session.client, config)
    } finally {
      window.location.assign('/')
    }
  }
  return (
    <div className="console-panel" data-testid="console-home">
      <p className="eyebrow">Console</p>
      <h1>Welcome, {user.firstName}</h1>
      {active === undefined ? (
        <p className="lead">You are not a member of any organisation yet.</p>
      ) : (
        <>
          <p className="lead">
            You are working in{' '}
            <strong data-testid="active-org">{active.name ?? active.cloudName}</strong>.
          </p>
          <div className="stat-grid">
            <div className="card">
              <span>Cloud name</span>
              <strong data-testid="cloud-name">{active.cloudName ?? '—'}</strong>
            </div>
            <div className="card">
              <span>Plan</span>
              <strong data-testid="plan">{plan}</strong>
            </div>
            <div className="card">
              <span>Credits</span>
              <strong data-testid="credits">{credits?.toLocaleString('en-US')}</strong>
            </div>
          </div>
          <div className="card">
            <h2 style={{ fontSize: '1.1rem' }}>Your first delivery URL</h2>
            <p>Upload an image, then change its size, crop or format by editing the URL:</p>
            <pre className="code-block">
              <code>{`/v2/${active.cloudName ?? '{cloudName}'}/t.resize(w:600)/{filePath}`}</code>
            </pre>
          </div>
        </>
      )}
      <div className="button-row" style={{ marginTop: 'var(--space-6)' }}>
        <Link to="/" className="button is-secondary" reloadDocument>
          Back to website
        </Link>
        {organizations.length > 1 ? (
          <Link to="/console/choose-org" className="button is-secondary">
            Switch organisation
          </Link>
        ) : null}
        <button type="button" className="button is-ghost" onClick={signOut}>
          Log out
        </button>
      </div>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
