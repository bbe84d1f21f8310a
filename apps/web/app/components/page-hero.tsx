import type { ReactNode } from 'react'

export function PageHero({
  eyebrow,
  title,
  lead,
  flush = false,
  children,
}: {
  eyebrow?: string
  title: string
  lead?: ReactNode
  /** On pages without the layout's top padding (SPEC §2.4) the hero clears the header itself. */
  flush?: boolean
  children?: ReactNode
}) {
  return (
    <section className={`page-hero${flush ? ' is-flush' : ''}`}>
      <div className="container">
        {eyebrow === undefined ? null : <p className="eyebrow">{eyebrow}</p>}
        <h1>{title}</h1>
        {lead === undefined ? null : <p className="lead">{lead}</p>}
        {children}
      </div>
    </section>
  )
}
