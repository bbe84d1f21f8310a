import { type ReactNode, useEffect } from 'react'
import { Link, useNavigate } from 'react-router'
import { isExternal } from '../lib/links.ts'

/**
 * A link that is a client-side navigation on this site and a plain anchor elsewhere (the
 * console, other hosts). External links open in a new tab unless `sameTab` is set.
 *
 * A path on this site is rendered as a plain `<a data-site-link>`, not as React Router's
 * `<Link>`: a `<Link>` resolves its path and sets up its click handler on every render (the
 * header, sidebar and footer have ~50 of them, which was ~6 % of a signed-in page render), and
 * these paths never need resolving. `SiteLinkNavigation` (mounted once by the root) turns their
 * clicks into the same client-side navigation a `<Link>` makes; `data-discover` keeps React
 * Router's route discovery for them.
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
  'aria-label'?: string
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
  if (href.startsWith('/console')) {
    return (
      <a href={href} {...props}>
        {children}
      </a>
    )
  }
  if (href.startsWith('/') && !href.startsWith('//')) {
    return (
      <a href={href} data-site-link="" data-discover="true" {...props}>
        {children}
      </a>
    )
  }
  // A relative path is resolved against the route, as only React Router knows how.
  return (
    <Link to={href} {...props}>
      {children}
    </Link>
  )
}

/**
 * Makes a click on any `<a data-site-link>` a client-side navigation, as `<Link>` does: only a
 * plain primary click (no modifier key) on a link that opens in this tab, and not when a handler
 * of the link already prevented it. Mounted once, in the root.
 */
export function SiteLinkNavigation() {
  const navigate = useNavigate()
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
      const target = event.target
      if (!(target instanceof Element)) return
      const anchor = target.closest('a[data-site-link]')
      if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return
      if (anchor.target !== '' && anchor.target !== '_self') return
      const url = new URL(anchor.href)
      if (url.origin !== window.location.origin) return
      event.preventDefault()
      const to = `${url.pathname}${url.search}${url.hash}`
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`
      // As `<Link>`: a link to the page already shown replaces its history entry.
      navigate(to, { replace: to === here })
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [navigate])
  return null
}
