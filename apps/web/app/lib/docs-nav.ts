// The documentation site's pages (under `/docs`, or WEB_DOCS_URL): their addresses, titles and the
// sidebar they sit in. The operation pages come from the catalogue (operation-docs.ts).

export interface DocsPage {
  /** The address under the documentation base: '' for the home page, else `/presets/using`. */
  path: string
  title: string
  description: string
  /** Sidebar group. */
  group: 'Start' | 'Transform' | 'Store and deliver' | 'Run it'
}

export const DOCS_PAGES: readonly DocsPage[] = [
  {
    path: '',
    title: 'Documentation',
    description: 'Store, transform, optimise and deliver images by URL.',
    group: 'Start',
  },
  {
    path: '/getting-started',
    title: 'Getting started',
    description: 'From an account to your first transformed image in a few minutes.',
    group: 'Start',
  },
  {
    path: '/url',
    title: 'The URL language',
    description: 'How a delivery URL names the organisation, the file and the transformations.',
    group: 'Start',
  },
  {
    path: '/integrations',
    title: 'Integrations',
    description: 'Build URLs in your own code with @tessera/url, and call the API with a token.',
    group: 'Start',
  },
  {
    path: '/transformations',
    title: 'Transformations',
    description: 'Every operation of the catalogue, with its parameters and an example.',
    group: 'Transform',
  },
  {
    path: '/optimizations',
    title: 'Optimisations',
    description: 'Smaller images with the same look: format, quality and device pixel ratio.',
    group: 'Transform',
  },
  {
    path: '/optimizations/format',
    title: 'Formats and f_auto',
    description: 'Choose an output format, or let the browser’s Accept header choose one.',
    group: 'Transform',
  },
  {
    path: '/presets',
    title: 'Presets',
    description: 'Named, stored transformation chains with variables.',
    group: 'Transform',
  },
  {
    path: '/presets/using',
    title: 'Using presets',
    description: 'Write a preset in a delivery URL, with or without variables.',
    group: 'Transform',
  },
  {
    path: '/presets/configuring',
    title: 'Configuring presets',
    description: 'Create, change and archive presets through the API.',
    group: 'Transform',
  },
  {
    path: '/uploads',
    title: 'Uploads',
    description: 'Upload files directly or by URL, and the download proxy.',
    group: 'Store and deliver',
  },
  {
    path: '/signed-urls',
    title: 'Signed URLs',
    description: 'Delivery URLs that expire and cannot be altered.',
    group: 'Store and deliver',
  },
  {
    path: '/rest-api',
    title: 'REST API reference',
    description: 'Every call of the server, from its OpenAPI document.',
    group: 'Store and deliver',
  },
  {
    path: '/rest-api/guide',
    title: 'REST API guide',
    description: 'The calls with curl examples: content, accounts, files, presets, credits.',
    group: 'Store and deliver',
  },
  {
    path: '/self-hosting',
    title: 'Self-hosting and settings',
    description: 'Run Tessera yourself: requirements, storage, database and every setting.',
    group: 'Run it',
  },
  {
    path: '/migration',
    title: 'Moving from Pixelbin',
    description:
      "Pixelbin's admin SDK against your server: domain and token, what differs and why.",
    group: 'Run it',
  },
]

export const DOCS_GROUPS = ['Start', 'Transform', 'Store and deliver', 'Run it'] as const

/** The documentation base: WEB_DOCS_URL when set, else the site's own `/docs`. */
export function docsBase(docsUrl: string): string {
  return docsUrl === '' ? '/docs' : docsUrl.replace(/\/+$/, '')
}
