import { Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { PageSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { SiblingPromos } from '../components/sibling-promos.tsx'
import { UseCaseSection } from '../components/use-case-section.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getProductSections } from '../lib/api.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/products.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Products',
    description:
      'Storage, transformation, optimisation and AI editing for images, in one self-hostable service.',
  })

// The products page's extra preload (SPEC §7): the use-case sections of the CMS.
export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  return { sections: await getProductSections(api.client, api.config) }
}

export default function Products({ loaderData }: Route.ComponentProps) {
  const { sections } = loaderData
  return (
    <>
      <PageHero
        eyebrow="Products"
        title="Everything between an upload and a perfect image"
        lead="Tessera stores your originals, transforms them on request and delivers the result from cache. Pick the workflows you need; they all share one URL language."
      >
        {sections.length === 0 ? null : (
          <nav aria-label="Use cases" className="chip-nav">
            {sections.map((section) => (
              <Link key={section.sectionId} to={`/usecase/${section.sectionId}`} className="pill">
                {section.header.title}
              </Link>
            ))}
          </nav>
        )}
      </PageHero>
      {sections.length === 0 ? (
        <section className="section">
          <div className="container">
            <p className="lead">
              The product overview is unavailable right now. Try again shortly.
            </p>
          </div>
        </section>
      ) : (
        sections.map((section, index) => (
          <UseCaseSection key={section.sectionId} section={section} alt={index % 2 === 1} />
        ))
      )}
      <PageSection title="AI tools built on the same engine" className="is-alt">
        <SiblingPromos source="products" />
      </PageSection>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
