import { data, Link } from 'react-router'
import { PageSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { SiblingPromos } from '../components/sibling-promos.tsx'
import { UseCaseSection } from '../components/use-case-section.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getProductSections } from '../lib/api.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/usecase.ts'

export const meta: Route.MetaFunction = (args) => {
  const section = args.loaderData?.section
  return metaFor(args, {
    title: section?.header.title ?? 'Use case',
    ...(section === undefined ? {} : { description: section.header.description }),
  })
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const sections = await getProductSections(api.client, api.config)
  const section = sections.find((entry) => entry.sectionId === params.caseId)
  if (section === undefined) throw data('No such use case', { status: 404 })
  return { section, others: sections.filter((entry) => entry !== section) }
}

export default function UseCase({ loaderData }: Route.ComponentProps) {
  const { section, others } = loaderData
  return (
    <>
      <div className="usecase-top">
        <UseCaseSection section={section} headingLevel={1} />
      </div>
      <PageSection title="Try it on your images" className="is-alt">
        <SiblingPromos source={`usecase-${section.sectionId}`} />
      </PageSection>
      <section className="section">
        <div className="container">
          <h2>More use cases</h2>
          <nav className="chip-nav" aria-label="More use cases">
            {others.map((other) => (
              <Link key={other.sectionId} className="pill" to={`/usecase/${other.sectionId}`}>
                {other.header.title}
              </Link>
            ))}
          </nav>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
