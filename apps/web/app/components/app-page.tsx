// The shell of a dynamic app's page (SPEC §2.1: /ai-tools/{slug} and /apps/{slug}). The tool
// itself (upload, run, compare) arrives with the AI tools issue; this shows what it does, the
// delivery URL behind it and where to go next.

import { Link } from 'react-router'
import type { DynamicApp } from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { playgroundUrl, signupUrl } from '../lib/links.ts'
import { ResponsiveImage } from './responsive-image.tsx'
import { usePageLocation } from './use-page-location.ts'

export function AppPage({ app, slug }: { app: DynamicApp | null; slug: string }) {
  const config = useConfig()
  const session = useSession()
  const page = usePageLocation()
  if (app === null) {
    return (
      <section className="page-hero is-flush" data-testid="app-missing">
        <div className="container">
          <p className="eyebrow">AI tools</p>
          <h1>This tool is not available</h1>
          <p className="lead">
            We could not find a tool called “{slug}”. It may have been renamed or retired.
          </p>
          <p style={{ marginTop: 'var(--space-5)' }}>
            <Link className="button is-primary" to="/ai-tools">
              See all AI tools
            </Link>
          </p>
        </div>
      </section>
    )
  }
  const transformation = app.config.transformation
  return (
    <section className="page-hero is-flush app-page" data-testid="app-page">
      <div className="container app-page-grid">
        <div>
          <p className="eyebrow">AI tool</p>
          <h1>{app.config.title}</h1>
          <p className="lead">{app.config.description}</p>
          <div className="button-row" style={{ marginTop: 'var(--space-6)' }}>
            {session.isUserLoggedIn ? (
              <a className="button is-primary is-large" href={playgroundUrl(config.consoleUrl)}>
                Open in the playground
              </a>
            ) : (
              <a className="button is-primary is-large" href={signupUrl(config.consoleUrl, page)}>
                Sign up to use it on your images
              </a>
            )}
            <Link className="button is-secondary is-large" to="/ai-tools">
              All AI tools
            </Link>
          </div>
          {transformation === undefined ? null : (
            <div style={{ marginTop: 'var(--space-6)' }}>
              <p className="eyebrow">The URL behind it</p>
              <pre className="code-block">
                <code>{`/v2/{cloudName}/${transformation}/{filePath}`}</code>
              </pre>
            </div>
          )}
        </div>
        {/* Its column: the page less its padding below 1024 px, beyond it 1 of 2.2 parts of 1152 px. */}
        <ResponsiveImage
          className="app-page-image"
          url={app.config.thumbnailURL}
          sizes="(max-width: 767px) calc(100vw - 32px), (max-width: 1023px) calc(100vw - 48px), 500px"
          alt={`An example for ${app.config.title}`}
          width={480}
          height={320}
          fetchPriority="high"
        />
      </div>
    </section>
  )
}
