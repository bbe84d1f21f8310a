import { CATALOGUE } from '@tessera/url'
import { Link } from 'react-router'
import { LiveImage } from '../components/live-image.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { runtimeConfig } from '../lib/api.server.ts'
import { useConfig } from '../lib/app-context.tsx'
import { docsHome } from '../lib/nav.ts'
import {
  exampleSample,
  exampleUrl,
  type OperationDoc,
  operationDoc,
  originalUrl,
  type ParamDoc,
  playgroundLink,
} from '../lib/operation-docs.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/api-plugin.ts'
import '../styles/run-status.css'
import './api-pages.css'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: args.loaderData?.plugin == null ? 'API plugins' : `${args.loaderData.plugin.name} API`,
    ...(args.loaderData?.plugin == null ? {} : { description: args.loaderData.plugin.description }),
  })

// The plugin named by ?plugin= and its schema (operations and parameters) from the catalogue,
// with an example on a demo sample for each operation (SPEC §7.2: the /api/plugin preload).
export function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('plugin') ?? ''
  const plugin = CATALOGUE.getPlugin(id)
  if (plugin === undefined) {
    // No or an unknown plugin: the choice of plugins.
    return {
      plugin: null,
      plugins: CATALOGUE.plugins.map((entry) => ({ id: entry.id, name: entry.name })),
    }
  }
  const config = runtimeConfig(context)
  const delivery = config.deliveryUrl === '' ? new URL(request.url).origin : config.deliveryUrl
  return {
    plugins: [],
    plugin: {
      id: plugin.id,
      name: plugin.name,
      description: plugin.description,
      original: originalUrl(delivery, exampleSample(plugin.operations[0] ?? {})),
      operations: plugin.operations.map((operation) => {
        const example = exampleUrl(operation, delivery)
        return { ...operationDoc(plugin, operation), example, playground: playgroundLink(example) }
      }),
    },
  }
}

/** Enums longer than this are folded (ic.crop has 80 object classes). */
const SHORT_ENUM = 12

function EnumValues({ values }: { values: readonly string[] }) {
  const list = (
    <ul className="enum-values">
      {values.map((value) => (
        <li key={value}>
          <code>{value}</code>
        </li>
      ))}
    </ul>
  )
  if (values.length <= SHORT_ENUM) return list
  return (
    <details>
      <summary>{values.length} values</summary>
      {list}
    </details>
  )
}

/** One parameter as a small stacked block: readable at 320 px, unlike a five-column table. */
export function ParamBlock({ param }: { param: ParamDoc }) {
  return (
    <li className="param" data-testid="param">
      <p className="param-head">
        <code className="param-key">{param.key}</code> <span>{param.title}</span>{' '}
        <span className={`param-flag${param.required ? ' is-required' : ''}`}>
          {param.required ? 'required' : 'optional'}
        </span>
      </p>
      <dl className="param-facts">
        <div>
          <dt>Type</dt>
          <dd>{param.type}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>
            <code>{param.name}</code>
          </dd>
        </div>
        <div>
          <dt>Default</dt>
          <dd>{param.default === '' ? '—' : <code>{param.default}</code>}</dd>
        </div>
        {param.range === '' ? null : (
          <div>
            <dt>Range</dt>
            <dd>{param.range}</dd>
          </div>
        )}
        {param.enum.length === 0 ? null : (
          <div className="is-wide">
            <dt>Values</dt>
            <dd>
              <EnumValues values={param.enum} />
            </dd>
          </div>
        )}
      </dl>
    </li>
  )
}

/** Whether this server runs the operation, in words. */
export function RunsHere({
  operation,
}: {
  operation: Pick<OperationDoc, 'runnable' | 'slow'> & { unavailableReason?: string }
}) {
  if (!operation.runnable) {
    return (
      <span className="run-status is-off" data-testid="run-status">
        Not run by this server (answers 501 operation_unavailable
        {operation.unavailableReason === undefined ? '' : `: ${operation.unavailableReason}`})
      </span>
    )
  }
  return (
    <span className="run-status is-on" data-testid="run-status">
      Runs on this server{operation.slow ? ' (as a background job: 202 until ready)' : ''}
    </span>
  )
}

export default function ApiPlugin({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
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
    <div className="api-pages">
      <PageHero flush eyebrow={`Plugin ${plugin.id}`} title={plugin.name} lead={plugin.description}>
        <p className="space-above-4">
          <Link to="/api">← All plugins</Link>
        </p>
      </PageHero>
      <section className="section is-flush-top">
        <div className="container operation-list">
          {plugin.operations.map((operation) => (
            <article
              key={operation.key}
              className="card operation"
              id={operation.method}
              data-testid="operation"
            >
              <h2 className="operation-title">
                {operation.displayName} <code className="pill">{operation.key}</code>
              </h2>
              <p>{operation.description}</p>
              <p>
                <RunsHere operation={operation} />
              </p>
              <h3 className="operation-subtitle">Parameters</h3>
              {operation.params.length === 0 ? (
                <p>No parameters.</p>
              ) : (
                <ul className="param-list">
                  {operation.params.map((param) => (
                    <ParamBlock key={param.key} param={param} />
                  ))}
                </ul>
              )}
              <h3 className="operation-subtitle">Example</h3>
              <pre className="example-url" data-testid="example-url">
                <code>{operation.example}</code>
              </pre>
              {operation.runnable && operation.videoOnly ? (
                <p className="example-note" data-testid="video-note">
                  <code>{operation.key}</code> runs on video files (mp4, mov, mkv, webm, avi, mpg):
                  the demo holds no video, so there is no live example here. Upload a video and ask{' '}
                  <code>{operation.pattern}</code> on it.
                </p>
              ) : operation.runnable ? (
                <div className="example-images">
                  <figure>
                    <img
                      className="live-image"
                      src={plugin.original}
                      alt="The demo sample, unchanged"
                      width={451}
                      height={300}
                      loading="lazy"
                      decoding="async"
                    />
                    <figcaption>Original</figcaption>
                  </figure>
                  <figure data-testid="example-result">
                    <LiveImage
                      src={operation.example}
                      alt={`The demo sample after ${operation.pattern}`}
                      slow={operation.slow}
                      width={451}
                      height={300}
                    />
                    <figcaption>
                      <code>{operation.pattern}</code>
                    </figcaption>
                  </figure>
                </div>
              ) : (
                <p className="example-note">
                  The URL parses and validates here, but this server has no model for{' '}
                  <code>{operation.key}</code>, so it answers <code>501 operation_unavailable</code>{' '}
                  instead of an image.
                </p>
              )}
              <p className="operation-links">
                {operation.videoOnly ? null : (
                  <a className="button is-small is-primary" href={operation.playground}>
                    Open in the playground
                  </a>
                )}
                <a
                  className="button is-small is-secondary"
                  href={docsHome(config, operation.docPath)}
                >
                  Read the documentation
                </a>
              </p>
            </article>
          ))}
        </div>
      </section>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
