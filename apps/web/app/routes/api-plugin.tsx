import { CATALOGUE } from '@tessera/url'
import { Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/api-plugin.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: args.loaderData?.plugin == null ? 'API plugins' : `${args.loaderData.plugin.name} API`,
    ...(args.loaderData?.plugin == null ? {} : { description: args.loaderData.plugin.description }),
  })

// The plugin named by ?plugin= and its schema (operations and parameters) from the catalogue.
export function loader({ request }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('plugin') ?? ''
  const plugin = CATALOGUE.getPlugin(id)
  if (plugin === undefined) {
    // No or an unknown plugin: the choice of plugins.
    return {
      plugin: null,
      plugins: CATALOGUE.plugins.map((entry) => ({ id: entry.id, name: entry.name })),
    }
  }
  return {
    plugins: [],
    plugin: {
      id: plugin.id,
      name: plugin.name,
      description: plugin.description,
      operations: plugin.operations.map((operation) => ({
        key: operation.key,
        method: operation.method,
        displayName: operation.displayName,
        description: operation.description,
        runnable: operation.runnable,
        params: operation.params.map((param) => ({
          name: param.title,
          identifier: param.id,
          type: param.type,
          default: param.default === null ? '' : String(param.default),
          required: param.required,
        })),
      })),
    },
  }
}

export default function ApiPlugin({ loaderData }: Route.ComponentProps) {
  const { plugin, plugins } = loaderData
  if (plugin === null) {
    return (
      <PageHero
        flush
        eyebrow="API"
        title="Choose a plugin"
        lead="Each plugin groups related operations."
      >
        <nav className="chip-nav" aria-label="Plugins">
          {plugins.map((entry) => (
            <Link
              key={entry.id}
              className="pill"
              to={`/api/plugin?plugin=${encodeURIComponent(entry.id)}`}
            >
              {entry.name}
            </Link>
          ))}
        </nav>
      </PageHero>
    )
  }
  return (
    <>
      <PageHero flush eyebrow={`Plugin ${plugin.id}`} title={plugin.name} lead={plugin.description}>
        <p style={{ marginTop: 'var(--space-4)' }}>
          <Link to="/api">← All plugins</Link>
        </p>
      </PageHero>
      <section className="section" style={{ paddingTop: 0 }}>
        <div className="container" style={{ display: 'grid', gap: 'var(--space-5)' }}>
          {plugin.operations.map((operation) => (
            <article
              key={operation.key}
              className="card"
              id={operation.method}
              data-testid="operation"
            >
              <h2 style={{ fontSize: '1.2rem' }}>
                {operation.displayName} <code className="pill">{operation.key}</code>
              </h2>
              <p>{operation.description}</p>
              {operation.params.length === 0 ? (
                <p>No parameters.</p>
              ) : (
                <div style={{ overflowX: 'auto' }}>
                  <table className="param-table">
                    <thead>
                      <tr>
                        <th scope="col">Parameter</th>
                        <th scope="col">Key</th>
                        <th scope="col">Type</th>
                        <th scope="col">Default</th>
                      </tr>
                    </thead>
                    <tbody>
                      {operation.params.map((param) => (
                        <tr key={param.identifier}>
                          <td>
                            {param.name}
                            {param.required ? ' (required)' : ''}
                          </td>
                          <td>
                            <code>{param.identifier}</code>
                          </td>
                          <td>{param.type}</td>
                          <td>{param.default === '' ? '—' : <code>{param.default}</code>}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </article>
          ))}
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
