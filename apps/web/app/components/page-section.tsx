// The bands of a site page below its hero: a container with a centred heading and its lead, or a
// list of cards under a heading only screen readers read.
import type { ReactNode } from 'react'

/**
 * A band with a visible heading (`title`, and `lead` under it). `titleId` names the section by
 * its heading; `className` adds to `section` (`is-alt` for the tinted band).
 */
export function PageSection({
  title,
  lead,
  titleId,
  className,
  children,
}: {
  title: ReactNode
  lead?: ReactNode
  titleId?: string
  className?: string
  children: ReactNode
}) {
  return (
    <section
      className={className === undefined ? 'section' : `section ${className}`}
      aria-labelledby={titleId}
    >
      <div className="container">
        <div className="section-header">
          <h2 id={titleId}>{title}</h2>
          {lead === undefined ? null : <p>{lead}</p>}
        </div>
        {children}
      </div>
    </section>
  )
}

/** A band of cards whose titles are h3: its h2 is for screen readers only. */
export function CardListSection({
  title,
  titleId,
  className,
  children,
}: {
  title: string
  titleId: string
  className?: string
  children: ReactNode
}) {
  return (
    <section
      className={className === undefined ? 'section' : `section ${className}`}
      aria-labelledby={titleId}
    >
      <div className="container">
        {/* This keeps the heading order h1 → h2 → h3. */}
        <h2 id={titleId} className="visually-hidden">
          {title}
        </h2>
        {children}
      </div>
    </section>
  )
}
