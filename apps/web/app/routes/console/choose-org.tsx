import { redirect, useLocation } from 'react-router'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { runtimeConfig } from '../../lib/api.server.ts'
import { useConfig } from '../../lib/app-context.tsx'
import { afterChoosingOrg, readAuthFlow } from '../../lib/auth-redirect.ts'
import { orgCookie, rememberOrg } from '../../lib/console-org.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/choose-org.ts'
import { requireConsoleUser } from './console.server.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Choose an organisation', noIndex: true })

export async function loader({ request, context }: Route.LoaderArgs) {
  const { organizations } = await requireConsoleUser(request, context)
  // With one organisation and a page to go on to (pricing's plans, the playground, the apps
  // settings link), there is nothing to choose: go straight on. Opened without a destination
  // ("Switch organisation"), the chooser still shows the list.
  const flow = readAuthFlow(new URL(request.url).search)
  const only = organizations.length === 1 ? organizations[0] : undefined
  if (only !== undefined && (flow.redirectUrl !== undefined || flow.redirectTo !== undefined)) {
    const { consoleUrl } = runtimeConfig(context)
    throw redirect(afterChoosingOrg(flow, only._id, { consoleBase: consoleUrl }), {
      headers: { 'Set-Cookie': orgCookie(only._id) },
    })
  }
  return { organizations }
}

export default function ChooseOrg({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const location = useLocation()
  const flow = readAuthFlow(location.search)
  const { organizations } = loaderData
  return (
    <div className="auth-card is-wide">
      <h1>Choose an organisation</h1>
      <p className="subtitle">Files, presets and credits belong to an organisation.</p>
      {organizations.length === 0 ? (
        <p>You are not a member of any organisation yet.</p>
      ) : (
        <ul className="org-list" data-testid="org-list">
          {organizations.map((org, index) => (
            <li key={org._id}>
              <a
                className="org-button"
                href={afterChoosingOrg(flow, org._id, { consoleBase: config.consoleUrl })}
                onClick={() => rememberOrg(org._id)}
              >
                <span>
                  <strong>{org.name ?? org.cloudName ?? org._id}</strong>
                  <small>
                    {org.cloudName === undefined ? '' : `Cloud name ${org.cloudName}`}
                    {org.role === undefined ? '' : ` · ${org.role}`}
                  </small>
                </span>
                {index === 0 ? <span className="pill">Active</span> : null}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
