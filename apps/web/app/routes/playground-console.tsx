// The organisation's playground in the console (SPEC §2.2: /organization/{orgId}/playground):
// the same component as /playground, on the organisation's files and presets.
import { useEffect, useState } from 'react'
import { data } from 'react-router'
import { Playground } from '../components/playground.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/playground-console.ts'
import { requireConsoleUser } from './console/console.server.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Playground', noIndex: true })

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { organizations } = await requireConsoleUser(request, context)
  const org = organizations.find((candidate) => candidate._id === params.orgId)
  if (org === undefined) {
    throw data({ code: 'organisation_not_found', message: 'No such organisation' }, 404)
  }
  return { org: { id: org._id, cloudName: org.cloudName ?? '', name: org.name ?? org._id } }
}

export default function ConsolePlayground({ loaderData }: Route.ComponentProps) {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  return (
    <div className="console-wide">
      <h1>Playground</h1>
      {mounted ? (
        <Playground org={loaderData.org} />
      ) : (
        <div className="playground-loading" aria-busy="true" />
      )}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
