import { Link } from 'react-router'
import type { DynamicApp } from '../lib/api.ts'
import { cmsImage } from '../lib/images.ts'

/**
 * A dynamic app (AI tool) as a card; its page is /ai-tools/{slug}. `position` is its place in
 * the list: the first row's images load at once (the first is the page's largest paint on a
 * phone), the rest when scrolled near.
 */
export function AppCard({
  app,
  position = Number.POSITIVE_INFINITY,
}: {
  app: DynamicApp
  position?: number
}) {
  const image = cmsImage(app.config.thumbnailURL, 480)
  return (
    <article className="card has-media" data-testid="app-card">
      <img
        className="card-media"
        src={image.src}
        {...(image.srcSet === undefined
          ? {}
          : { srcSet: image.srcSet, sizes: '(max-width: 767px) 100vw, 400px' })}
        alt=""
        width={480}
        height={320}
        loading={position < 3 ? 'eager' : 'lazy'}
        {...(position === 0 ? { fetchPriority: 'high' as const } : {})}
        decoding="async"
      />
      <div className="card-body">
        <h3>{app.config.title}</h3>
        <p>{app.config.description}</p>
        <Link className="card-link" to={`/ai-tools/${app.slug}`}>
          Open {app.config.title}
        </Link>
      </div>
    </article>
  )
}
