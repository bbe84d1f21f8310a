import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { isExternal } from '../lib/links.ts'

/**
 * A link that is a client-side navigation on this site and a plain anchor elsewhere (the
 * console, other hosts). External links open in a new tab unless `sameTab` is set.
 */
export function SmartLink({
  href,
  children,
  className,
  sameTab = false,
  onClick,
  ...rest
}: {
  href: string
  children: ReactNode
  className?: string
  sameTab?: boolean
  onClick?: () => void
  role?: string
  'data-testid'?: string
}) {
  const props = { ...(className === undefined ? {} : { className }), ...rest, onClick }
  if (isExternal(href)) {
    return sameTab ? (
      <a href={href} {...props}>
        {children}
      </a>
    ) : (
      <a href={href} target="_blank" rel="noopener noreferrer" {...props}>
        {children}
      </a>
    )
  }
  // Console paths are another app as far as the site's router knows: a full page load.
  return (
    <Link to={href} reloadDocument={href.startsWith('/console')} {...props}>
      {children}
    </Link>
  )
}
