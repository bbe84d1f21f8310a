import type { ProductSection } from '../lib/api.ts'
import { useConfig } from '../lib/app-context.tsx'
import { docsHome } from '../lib/nav.ts'
import { MediaCard } from './media-card.tsx'
import { SmartLink } from './nav-link.tsx'

/** One use-case section of SPEC §2.7: its header and 2–3 cards linking into the docs. */
export function UseCaseSection({
  section,
  alt = false,
  headingLevel = 2,
}: {
  section: ProductSection
  alt?: boolean
  headingLevel?: 1 | 2
}) {
  const config = useConfig()
  const Heading = headingLevel === 1 ? 'h1' : 'h2'
  // The cards' titles are one level below the section's heading (they look the same either way).
  const CardHeading = headingLevel === 1 ? 'h2' : 'h3'
  return (
    <section
      id={section.sectionId}
      className={`section${alt ? ' is-alt' : ''}`}
      data-testid={`usecase-${section.sectionId}`}
    >
      <div className="container">
        <div className="section-header">
          <Heading>{section.header.title}</Heading>
          <p>{section.header.description}</p>
        </div>
        <div className={`grid ${section.cards.length === 2 ? 'cols-2' : 'cols-3'}`}>
          {section.cards.map((card) => {
            return (
              <MediaCard
                key={card.title}
                image={{ url: card.image, width: 640, height: 400, loading: 'lazy' }}
              >
                <CardHeading className="card-title">{card.title}</CardHeading>
                <p>{card.description}</p>
                <SmartLink className="card-link" href={docsHome(config, card.link)}>
                  Learn how
                </SmartLink>
              </MediaCard>
            )
          })}
        </div>
      </div>
    </section>
  )
}
