import { AppPage } from '../components/app-page.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getDynamicApp } from '../lib/api.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/app.ts'

export const meta: Route.MetaFunction = (args) => {
  const app = args.loaderData?.app
  return metaFor(args, {
    title: app?.config.title ?? 'AI tool',
    ...(app == null ? {} : { description: app.config.description, image: app.config.thumbnailURL }),
  })
}

// A failed lookup leaves no selected app (SPEC §8); the page says so.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const app = await getDynamicApp(api.client, api.config, params.slug).catch(() => null)
  return { app, slug: params.slug }
}

export default function DynamicAppPage({ loaderData }: Route.ComponentProps) {
  return <AppPage app={loaderData.app} slug={loaderData.slug} />
}

export const ErrorBoundary = RouteErrorBoundary
