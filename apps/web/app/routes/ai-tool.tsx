import { lazy } from 'react'
import { data, isRouteErrorResponse, useRouteError } from 'react-router'
import { afterFirstPaint } from '../components/after-first-paint.ts'
import { AppPage } from '../components/app-page.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getDynamicApp } from '../lib/api.ts'
import { HttpError } from '../lib/http-client.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/ai-tool.ts'
import '../styles/sample-thumbs.css'
import '../components/ai-tool-runner.css'

/**
 * The tool itself (upload, run, compare) is fetched once the page has painted, so the first paint
 * (the example image, the page's LCP on a phone) does not wait for its code. No Suspense boundary
 * on purpose: the server renders it in place (React would move a completed boundary this far down
 * the page behind a script), and hydration keeps the server's markup until the code is there.
 */
const AiToolRunner = lazy(() =>
  afterFirstPaint()
    .then(() => import('../components/ai-tool-runner.tsx'))
    .then((module) => ({ default: module.AiToolRunner })),
)

export const meta: Route.MetaFunction = (args) => {
  const app = args.loaderData?.app
  return metaFor(args, {
    title: app?.config.title ?? 'AI tool not available',
    ...(app == null
      ? { noIndex: true }
      : { description: app.config.description, image: app.config.thumbnailURL }),
  })
}

/** What a failed lookup throws: the page says the tool is not available (SPEC §8). */
interface Missing {
  missing: true
  slug: string
}

// An unknown slug answers 404 (so it is not indexed or cached as a page); a lookup that failed
// for another reason answers 503, with the same page.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  try {
    const app = await getDynamicApp(api.client, api.config, params.slug)
    return { app, slug: params.slug }
  } catch (error) {
    const status = error instanceof HttpError && error.status === 404 ? 404 : 503
    throw data<Missing>({ missing: true, slug: params.slug }, { status })
  }
}

export default function DynamicAppPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AppPage app={loaderData.app} slug={loaderData.slug} />
      <AiToolRunner app={loaderData.app} />
    </>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && (error.data as Partial<Missing> | null)?.missing === true) {
    return <AppPage app={null} slug={(error.data as Missing).slug} />
  }
  return <RouteErrorBoundary />
}
