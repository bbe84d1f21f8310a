// The public list of predictions (SPEC §2.8, §3, §4, §7.2, §8): loaded with the page; when the
// call fails the page says 'Failed to load predictions' over an empty list and offers a retry.

import { useReducer } from 'react'
import { Link } from 'react-router'
import { MediaCard } from '../components/media-card.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getPredictions } from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { PREDICTIONS_FAILED, type PredictionItem, predictionsReducer } from '../lib/predictions.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/predictions.ts'
import '../styles/run-status.css'
import './predictions.css'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Predictions',
    description:
      'AI models you can run on your images: smart crop, background removal, upscaling, detection and more.',
  })

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  try {
    const items = (await getPredictions(api.client, api.config)) as PredictionItem[]
    return { list: items, error: null }
  } catch {
    return { list: [] as PredictionItem[], error: PREDICTIONS_FAILED }
  }
}

export function PredictionCard({ item, position }: { item: PredictionItem; position: number }) {
  return (
    <MediaCard
      className="prediction-card"
      testId="prediction-card"
      image={
        item.thumbnailURL === undefined
          ? undefined
          : {
              url: item.thumbnailURL,
              width: 480,
              height: 320,
              loading: position < 3 ? 'eager' : 'lazy',
            }
      }
    >
      <h2 className="card-title">{item.displayName ?? item.id}</h2>
      <p>{item.description}</p>
      <p className="prediction-meta">
        {item.operation === undefined ? null : <code>{item.operation}</code>}
        <span className={`run-badge ${item.runnable === true ? 'is-on' : 'is-off'}`}>
          {item.runnable === true ? 'Runs on this server' : 'Model not available here'}
        </span>
      </p>
      <Link className="card-link" to={`/predictions/${encodeURIComponent(item.id)}`}>
        Open {item.displayName ?? item.id}
      </Link>
    </MediaCard>
  )
}

export default function Predictions({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const session = useSession()
  const [state, dispatch] = useReducer(predictionsReducer, {
    list: loaderData.list,
    loading: false,
    error: loaderData.error,
  })

  async function retry() {
    dispatch({ type: 'fetch_request' })
    try {
      const items = (await getPredictions(session.client, config)) as PredictionItem[]
      dispatch({ type: 'fetch_success', items })
    } catch {
      dispatch({ type: 'fetch_failure', error: PREDICTIONS_FAILED })
    }
  }

  return (
    <>
      <PageHero
        eyebrow="Predictions"
        title="Run AI models on your images"
        lead="Each prediction takes an image and a few settings, runs as a job and gives back an image and its JSON. Members run them from their organisation; every run costs 1 credit."
      />
      <section className="section is-flush-top">
        <div className="container">
          {state.loading ? (
            <p role="status" data-testid="predictions-loading">
              <span className="spinner" /> Loading predictions…
            </p>
          ) : null}
          {state.error === null ? null : (
            <div className="form-alert is-error" role="alert" data-testid="predictions-error">
              <p>{state.error}</p>
              <button type="button" className="button is-small" onClick={() => void retry()}>
                Try again
              </button>
            </div>
          )}
          <div className="grid cols-3" data-testid="prediction-list">
            {state.list.map((item, position) => (
              <PredictionCard key={item.id} item={item} position={position} />
            ))}
          </div>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
