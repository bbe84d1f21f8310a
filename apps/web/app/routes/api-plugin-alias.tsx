// `/api/{plugin}` (e.g. `/api/erase`): the plugin's API page lives at `/api/plugin?plugin=…`, so a
// known plugin is sent there (301); anything else answers the not-found page with 404 instead
// of a silent redirect home (issue 24 item 7).
import { CATALOGUE } from '@tessera/url'
import { data, redirect } from 'react-router'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/api-plugin-alias.ts'
import PageNotFound from './page-not-found.tsx'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Page not found', noIndex: true })

export function loader({ params }: Route.LoaderArgs) {
  const plugin = CATALOGUE.getPlugin(params.plugin)
  if (plugin !== undefined) {
    return redirect(`/api/plugin?${new URLSearchParams({ plugin: plugin.id })}`, 301)
  }
  return data(null, { status: 404 })
}

export default PageNotFound
