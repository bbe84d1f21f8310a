// Header navigation items with the fields of SPEC §2.5, and the footer columns of SPEC §2.6.
import { docsBase } from './docs-nav.ts'
import type { RuntimeConfig } from './runtime-config.ts'

export interface NavItem {
  display: string
  identifier: string
  route: string
  dropDown: boolean
  isExternal: boolean
  /** External links open in a new tab unless this is set. */
  dontOpenInNewTab: boolean
  /** Shown only in the mobile sidebar. */
  desktopHide: boolean
  DropDownRoutes: NavItem[]
}

const link = (
  display: string,
  identifier: string,
  route: string,
  extra: Partial<NavItem> = {},
): NavItem => ({
  display,
  identifier,
  route,
  dropDown: false,
  isExternal: /^https?:\/\//i.test(route),
  dontOpenInNewTab: false,
  desktopHide: false,
  DropDownRoutes: [],
  ...extra,
})

/** A page of the documentation site: WEB_DOCS_URL when configured, else this site's `/docs`. */
export function docsHome(config: RuntimeConfig, path = ''): string {
  return `${docsBase(config.docsUrl)}${path}`
}

export function headerNav(config: RuntimeConfig): NavItem[] {
  const tools = config.siblingTools
  return [
    link('AI Tools', 'ai-tools', '/ai-tools', {
      dropDown: true,
      DropDownRoutes: [
        link('Background Remover', 'background-remover', tools.backgroundRemover),
        link('Image Upscaler', 'image-upscaler', tools.upscaler),
        link('Watermark Remover', 'watermark-remover', tools.watermarkRemover),
        link('AI Headshots', 'ai-headshots', '/ai-tools/ai-headshots'),
        link('See All', 'see-all', '/ai-tools'),
      ],
    }),
    link('Developers', 'developers', '/api', {
      dropDown: true,
      DropDownRoutes: [
        link('Documentation', 'documentation', docsHome(config)),
        link('APIs', 'apis', '/api'),
        link('Integrations', 'integrations', docsHome(config, '/integrations')),
        link('Playground', 'playground', '/playground'),
        link('Predictions', 'predictions', '/predictions'),
      ],
    }),
    // SPEC §2.5: Pricing is an external link that opens in the same tab.
    link('Pricing', 'pricing', '/pricing', { isExternal: true, dontOpenInNewTab: true }),
  ]
}

export interface FooterColumn {
  id: string
  title: string
  links: { label: string; href: string }[]
}

export function footerColumns(config: RuntimeConfig): FooterColumn[] {
  const tools = config.siblingTools
  return [
    {
      id: 'products',
      title: 'Products',
      links: [
        { label: 'Background Remover', href: tools.backgroundRemover },
        { label: 'Watermark Remover', href: tools.watermarkRemover },
        { label: 'Image Upscaler', href: tools.upscaler },
        { label: 'Image Compressor', href: tools.compressor },
        { label: 'Format Converter', href: tools.converter },
      ],
    },
    {
      id: 'company',
      title: 'Company',
      links: [
        { label: 'Pricing', href: '/pricing' },
        { label: 'Caution Notice', href: '/terms-of-use#caution-notice' },
        { label: 'Privacy Policy', href: '/privacy-policy' },
        { label: 'Terms of Use', href: '/terms-of-use' },
      ],
    },
    {
      id: 'developers',
      title: 'Developers',
      links: [
        { label: 'Getting Started', href: docsHome(config, '/getting-started') },
        { label: 'Documentation', href: docsHome(config) },
        { label: 'APIs', href: '/api' },
        { label: 'Integrations', href: docsHome(config, '/integrations') },
        { label: 'Playground', href: '/playground' },
        { label: 'Predictions', href: '/predictions' },
      ],
    },
    {
      id: 'get-in-touch',
      title: 'Get in Touch',
      links: [
        { label: 'Schedule a call', href: config.schedulerUrl },
        { label: 'Raise a ticket', href: config.supportUrl },
        { label: 'Become An Affiliate', href: config.affiliateUrl },
      ],
    },
  ]
}
