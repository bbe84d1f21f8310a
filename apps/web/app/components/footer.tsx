// Site footer (SPEC §1, §2.6): four columns that become accordions on narrow screens (one open
// at a time), app-store badges, social links and badges from the CMS, copyright and legal notice.
import { useState } from 'react'
import type { WebsiteConfig } from '../lib/api.ts'
import { useConfig } from '../lib/app-context.tsx'
import { accordionReducer } from '../lib/header-state.ts'
import { cmsImage } from '../lib/images.ts'
import { footerColumns } from '../lib/nav.ts'
import { BrandMark, ChevronDown, Logo } from './icons.tsx'
import { SmartLink } from './nav-link.tsx'
import './footer.css'

const SOCIAL_LABELS: Record<string, string> = {
  discord: 'Discord',
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  youtube: 'YouTube',
  twitter: 'X (Twitter)',
}

export function Footer({ website, year }: { website: WebsiteConfig; year: number }) {
  const config = useConfig()
  const [open, setOpen] = useState<string | null>(null)
  const columns = footerColumns(config)
  const stores = [
    {
      id: 'ios',
      href: config.appStores.ios,
      mark: 'apple',
      small: 'Download on the',
      big: 'App Store',
    },
    {
      id: 'android',
      href: config.appStores.android,
      mark: 'android',
      small: 'Get it on',
      big: 'Google Play',
    },
  ].filter((store) => store.href !== '')

  return (
    <footer className="site-footer" data-testid="site-footer">
      <div className="site-footer-inner">
        <div className="footer-brand">
          <SmartLink href="/" className="site-logo footer-logo" aria-label="Tessera home">
            <Logo />
            <span>Tessera</span>
          </SmartLink>
          <p className="footer-tagline">
            Store, transform and deliver images by URL. Self-hosted, open source, fast.
          </p>
          {stores.length === 0 ? null : (
            <div className="store-badges" data-testid="store-badges">
              {stores.map((store) => (
                <a
                  key={store.id}
                  className="store-badge"
                  href={store.href}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  <BrandMark name={store.mark} size={22} />
                  <span>
                    <small>{store.small}</small>
                    {store.big}
                  </span>
                </a>
              ))}
            </div>
          )}
          {website.socialMediaLinks.length === 0 ? null : (
            <ul className="social-links" aria-label="Social media" data-testid="social-links">
              {website.socialMediaLinks.map((social) => (
                <li key={social.identifier}>
                  <a
                    href={social.link}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={SOCIAL_LABELS[social.identifier] ?? social.identifier}
                    data-identifier={social.identifier}
                  >
                    <BrandMark name={social.identifier} size={18} />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="footer-columns">
          {columns.map((column) => {
            const isOpen = open === column.id
            return (
              <section
                key={column.id}
                className={`footer-column${isOpen ? ' is-open' : ''}`}
                data-testid={`footer-column-${column.id}`}
              >
                <h2 className="footer-heading">
                  <button
                    type="button"
                    className="footer-toggle"
                    aria-expanded={isOpen}
                    aria-controls={`footer-links-${column.id}`}
                    onClick={() => setOpen((current) => accordionReducer(current, column.id))}
                  >
                    {column.title}
                    <ChevronDown size={18} />
                  </button>
                  <span className="footer-title">{column.title}</span>
                </h2>
                <ul className="footer-links" id={`footer-links-${column.id}`}>
                  {column.links.map((link) => (
                    <li key={link.label}>
                      <SmartLink href={link.href} sameTab>
                        {link.label}
                      </SmartLink>
                    </li>
                  ))}
                </ul>
              </section>
            )
          })}
        </div>
      </div>
      <div className="site-footer-bottom">
        {website.footerBadgeList.length === 0 ? null : (
          <ul className="footer-badges" data-testid="footer-badges">
            {website.footerBadgeList.map((badge) => (
              <li key={badge.badgeName}>
                <img
                  src={cmsImage(badge.badgeUrl, 120).src}
                  alt={badge.badgeName}
                  width={120}
                  height={40}
                  loading="lazy"
                />
                <span>{badge.badgeName}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="copyright" data-testid="copyright">
          © {year} Tessera. All rights reserved.
        </p>
        <p className="legal-notice">
          Tessera is free software under the GNU AGPL-3.0-or-later. Process only images you have the
          rights to; AI results may contain errors. See the{' '}
          <SmartLink href="/terms-of-use#caution-notice">caution notice</SmartLink>.
        </p>
      </div>
    </footer>
  )
}
