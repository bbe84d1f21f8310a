import { CATALOGUE } from '@tessera/url'
import { Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/api.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'API',
    description:
      'Every transformation plugin and operation of the Tessera delivery URL, with parameters.',
  })

// The API listing's extra preload (SPEC §7): the plugins of the operation catalogue.
export function loader() {
  return {
    plugins: CATALOGUE.plugins.map((plugin) => ({
      id: plugin.id,
      name: plugin.name,
      description: plugin.description,
      operations: plugin.operations.length,
      runnable: plugin.operations.filter((operation) => operation.runnable).length,
    })),
  }
}

export default function Api({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        flush
        eyebrow="API"
        title="Transformation API"
        lead="Every operation is written in the delivery URL as plugin.method(param:value). Pick a plugin to see its operations and parameters."
      />
      <section className="section is-flush-top">
        <div className="container">
          <div className="grid cols-3" data-testid="plugin-list">
            {loaderData.plugins.map((plugin) => (
              <article key={plugin.id} className="card">
                <p className="eyebrow">
                  <code>{plugin.id}</code>
                </p>
                <h2 className="plugin-card-name">{plugin.name}</h2>
                <p>{plugin.description}</p>
                <p className="plugin-card-count">
                  {plugin.operations} operation{plugin.operations === 1 ? '' : 's'}
                  {plugin.runnable === plugin.operations
                    ? ''
                    : ` · ${plugin.runnable} runnable here`}
                </p>
                <Link
                  className="card-link"
                  to={`/api/plugin?plugin=${encodeURIComponent(plugin.id)}`}
                >
                  View operations
                </Link>
              </article>
            ))}
          </div>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
