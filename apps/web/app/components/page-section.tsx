// The bands of a site page below its hero: a container with a centred heading and its lead, or a
// list of cards under a heading only screen readers read.
import type { ReactNode } from 'react'

/** The section and its container; `titleId` names the section by its heading. */
function Band({
  titleId,
  className,
  children,
}: {
  titleId: string | undefined
  className: string | undefined
  children: ReactNode
}) {
  return (
    <section
      className={className === undefined ? 'section' : `section ${className}`}
      aria-labelledby={titleId}
    >
      <div className="container">{children}</div>
    </section>
  )
}

/**
 * A band with a visible heading (`title`, and `lead` under it). `className` adds to `section`
 * (`is-alt` for the tinted band).
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
    <Band titleId={titleId} className={className}>
      <div className="section-header">
        <h2 id={titleId}>{title}</h2>
        {lead === undefined ? null : <p>{lead}</p>}
      </div>
      {children}
    </Band>
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
    <Band titleId={titleId} className={className}>
      {/* This keeps the heading order h1 → h2 → h3. */}
      <h2 id={titleId} className="visually-hidden">
        {title}
      </h2>
      {children}
    </Band>
  )
}
