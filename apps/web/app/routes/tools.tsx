import { AppCard } from '../components/app-card.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { CardListSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getDynamicApps } from '../lib/api.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/tools.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Free image tools',
    description: 'Compress, convert, resize and filter images in the browser, powered by Tessera.',
  })

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const answer = await getDynamicApps(api.client, api.config, {
    tags: 'tools',
    pageNo: 1,
    pageSize: 24,
    sortBy: 'title',
  }).catch(() => ({ items: [] }))
  return { apps: answer.items }
}

export default function Tools({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        eyebrow="Tools"
        title="Free image tools"
        lead="Everyday fixes, done by the same engine that powers our delivery: compress, convert, resize and recolour."
      />
      <CardListSection title="All tools" titleId="tool-list-heading" className="is-flush-top">
        {loaderData.apps.length === 0 ? (
          <p className="lead">No tools are listed right now.</p>
        ) : (
          <div className="grid cols-3">
            {loaderData.apps.map((app, index) => (
              <AppCard key={app.slug} app={app} position={index} />
            ))}
          </div>
        )}
      </CardListSection>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
