import { CATALOGUE } from '@tessera/url'
import { Link } from 'react-router'
import { SmartLink } from '../components/nav-link.tsx'
import { PageSection } from '../components/page-section.tsx'
import { RecentPosts } from '../components/recent-posts.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { SiblingPromos } from '../components/sibling-promos.tsx'
import { UseCaseSection } from '../components/use-case-section.tsx'
import { usePageLocation } from '../components/use-page-location.ts'
import { ProductVideo } from '../components/video-overlay.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getAnnouncements, getProductSections } from '../lib/api.ts'
import { useConfig } from '../lib/app-context.tsx'
import { type BlogPost, getRecentPosts } from '../lib/blog.ts'
import { sampleImage } from '../lib/images.ts'
import { signupUrl } from '../lib/links.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/home.ts'
import './home.css'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Tessera',
    description:
      'Store, transform, optimise and deliver images by URL. Background removal, smart crop, presets and a playground, on your own servers.',
  })

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const [sections, announcements, posts] = await Promise.all([
    getProductSections(api.client, api.config),
    getAnnouncements(api.client, api.config),
    // Like the product sections (SPEC §8): when the CMS fails, the section is left out.
    getRecentPosts(api.client, api.config).catch((): BlogPost[] => []),
  ])
  const operations = CATALOGUE.plugins.reduce((sum, plugin) => sum + plugin.operations.length, 0)
  return { sections, announcements, posts, operations }
}

const CHAIN = 't.resize(w:560,h:420)'

export default function Home({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const page = usePageLocation()
  const { sections, announcements, posts, operations } = loaderData
  const before = sampleImage(config.deliveryUrl, 'chelsea.png', { maxWidth: 560, aspect: 4 / 3 })
  const after = sampleImage(config.deliveryUrl, 'chelsea.png', {
    maxWidth: 560,
    aspect: 4 / 3,
    extra: '~t.grey()',
  })
  const latest = announcements[0]
  return (
    <>
      {latest === undefined ? null : (
        <div className="announcement-bar" data-testid="announcement">
          <div className="container">
            <span className="pill">New</span>
            <span className="announcement-title">{latest.title}</span>
            {latest.link === undefined ? null : (
              <SmartLink href={latest.link} sameTab className="announcement-link">
                {latest.linkText ?? 'Read more'}
              </SmartLink>
            )}
          </div>
        </div>
      )}
      <section className="home-hero">
        <div className="container home-hero-grid">
          <div>
            <p className="eyebrow">Image transformation and delivery</p>
            <h1>
              Every image, <span className="gradient-text">transformed by URL</span>.
            </h1>
            <p className="lead">
              Upload once, then resize, crop, remove backgrounds and convert formats by writing a
              URL. Tessera runs on your own servers and delivers the right image to every device.
            </p>
            <div className="button-row">
              <a className="button is-primary is-large" href={signupUrl(config.consoleUrl, page)}>
                Start for free
              </a>
              <Link className="button is-secondary is-large" to="/ai-tools">
                Try the AI tools
              </Link>
            </div>
            <div className="hero-meta">
              <ProductVideo />
              <p className="hero-note">
                {config.freePlanCredits} free credits to start. No card needed.
              </p>
            </div>
          </div>
          <figure className="hero-visual" aria-label="A photo transformed by its URL">
            <div className="hero-images">
              <img
                {...before}
                sizes="(max-width: 767px) 45vw, 280px"
                alt="A cat, as uploaded"
                width={560}
                height={420}
                fetchPriority="high"
              />
              <img
                {...after}
                sizes="(max-width: 767px) 45vw, 280px"
                alt="The same cat in black and white, made by adding t.grey() to its URL"
                width={560}
                height={420}
              />
            </div>
            <figcaption className="hero-url">
              <code>
                /v2/demo/<b>{CHAIN}~t.grey()</b>/samples/chelsea.png
              </code>
            </figcaption>
          </figure>
        </div>
      </section>

      <PageSection
        title="One URL does the work of an image pipeline"
        lead="Chain up to 15 operations, save them as presets, and let the cache serve each result in milliseconds after the first request."
        titleId="why-title"
        className="home-features"
      >
        <div className="grid cols-4 stats">
          <div>
            <strong>{operations}</strong>
            <span>operations in the catalogue</span>
          </div>
          <div>
            <strong>AVIF · WebP</strong>
            <span>chosen per browser with f_auto</span>
          </div>
          <div>
            <strong>1 process</strong>
            <span>website, API and delivery</span>
          </div>
          <div>
            <strong>AGPL</strong>
            <span>open source, self-hosted</span>
          </div>
        </div>
      </PageSection>

      {sections.map((section, index) => (
        <UseCaseSection key={section.sectionId} section={section} alt={index % 2 === 0} />
      ))}

      <PageSection
        title="AI tools you can use right now"
        lead="No account needed to try them on your own images."
        titleId="tools-title"
      >
        <SiblingPromos source="home" />
      </PageSection>

      {announcements.length > 1 ? (
        <PageSection title="What is new" titleId="news-title" className="is-alt">
          <div className={`grid ${announcements.length === 2 ? 'cols-2 news-pair' : 'cols-3'}`}>
            {announcements.map((item) => (
              <article key={item.id} className="card">
                <h3>{item.title}</h3>
                <p>{item.description}</p>
                {item.link === undefined ? null : (
                  <SmartLink className="card-link" href={item.link} sameTab>
                    {item.linkText ?? 'Read more'}
                  </SmartLink>
                )}
              </article>
            ))}
          </div>
        </PageSection>
      ) : null}

      {posts.length > 0 ? <RecentPosts posts={posts} /> : null}

      <section className="section is-dark cta-band">
        <div className="container">
          <h2>Ship faster images this afternoon</h2>
          <p>Run it with one command, or start on the hosted free plan.</p>
          <div className="button-row is-centered">
            <a className="button is-primary is-large" href={signupUrl(config.consoleUrl, page)}>
              Create a free account
            </a>
            <Link className="button is-secondary is-large" to="/pricing">
              See pricing
            </Link>
          </div>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
