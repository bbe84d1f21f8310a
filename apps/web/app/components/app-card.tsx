import { Link } from 'react-router'
import type { DynamicApp } from '../lib/api.ts'
import { MediaCard } from './media-card.tsx'

/**
 * A dynamic app (AI tool) as a card; its page is /ai-tools/{slug}. `position` is its place in
 * the list: the first row's images load at once (the first is the page's largest paint on a
 * phone), the rest when scrolled near.
 */
export function AppCard({
  app,
  position = Number.POSITIVE_INFINITY,
  usable,
}: {
  app: DynamicApp
  position?: number
  /** Whether the tool runs on this server; when false the card says so. */
  usable?: boolean
}) {
  return (
    <MediaCard
      testId="app-card"
      image={{
        url: app.config.thumbnailURL,
        width: 480,
        height: 320,
        loading: position < 3 ? 'eager' : 'lazy',
        ...(position === 0 ? { fetchPriority: 'high' as const } : {}),
      }}
    >
      <h3>{app.config.title}</h3>
      {usable === false ? (
        <p className="pill" data-testid="not-usable">
          Coming soon on this server
        </p>
      ) : null}
      <p>{app.config.description}</p>
      <Link className="card-link" to={`/ai-tools/${app.slug}`}>
        Open {app.config.title}
      </Link>
    </MediaCard>
  )
}
