// The documentation site's pages, made on the server only: Markdown from the repository's own
// documents (bundled into the server build as text), the catalogue and the OpenAPI document,
// rendered once per process by `marked`. Browsers get HTML and no Markdown code.
import { PUBLIC_API_PATHS } from '@tessera/url'
import apiMd from '../../../../docs/api.md?raw'
import deliveryMd from '../../../../docs/delivery.md?raw'
import migrationMd from '../../../../docs/migration.md?raw'
import uploadMd from '../../../../docs/upload-api.md?raw'
import urlReadmeMd from '../../../../packages/url/README.md?raw'
import readmeMd from '../../../../README.md?raw'
import gettingStartedMd from '../docs/getting-started.md?raw'
import indexMd from '../docs/index.md?raw'
import integrationsMd from '../docs/integrations.md?raw'
import migrationPageMd from '../docs/migration.md?raw'
import optimizationsMd from '../docs/optimizations.md?raw'
import optimizationsFormatMd from '../docs/optimizations-format.md?raw'
import presetsMd from '../docs/presets.md?raw'
import presetsConfiguringMd from '../docs/presets-configuring.md?raw'
import presetsUsingMd from '../docs/presets-using.md?raw'
import restApiMd from '../docs/rest-api.md?raw'
import restApiGuideMd from '../docs/rest-api-guide.md?raw'
import selfHostingMd from '../docs/self-hosting.md?raw'
import signedUrlsMd from '../docs/signed-urls.md?raw'
import transformationsMd from '../docs/transformations.md?raw'
import uploadsMd from '../docs/uploads.md?raw'
import urlMd from '../docs/url.md?raw'
import {
  extractSection,
  plainText,
  type RenderedDoc,
  renderMarkdown,
  rewriteLinks,
} from './docs-markdown.ts'
import { DOCS_PAGES, type DocsPage } from './docs-nav.ts'
import { type OpenApiDocument, openApiMarkdown } from './openapi-docs.ts'
import { allOperationDocs, type OperationDoc } from './operation-docs.ts'

/** The repository's documents a page may include, by their path from the repository root. */
const SOURCES: Record<string, string> = {
  'README.md': readmeMd,
  'docs/api.md': apiMd,
  'docs/delivery.md': deliveryMd,
  'docs/migration.md': migrationMd,
  'docs/upload-api.md': uploadMd,
  'packages/url/README.md': urlReadmeMd,
}

/** Where each of those documents lives on the site (links between them are rewritten to it). */
const SOURCE_PAGES: Record<string, string> = {
  'README.md': '/self-hosting',
  'docs/api.md': '/rest-api/guide',
  'docs/delivery.md': '/url',
  'docs/migration.md': '/migration',
  'docs/upload-api.md': '/uploads',
  'packages/url/README.md': '/integrations',
}

const PAGE_SOURCES: Record<string, string> = {
  '': indexMd,
  '/getting-started': gettingStartedMd,
  '/url': urlMd,
  '/integrations': integrationsMd,
  '/transformations': transformationsMd,
  '/optimizations': optimizationsMd,
  '/optimizations/format': optimizationsFormatMd,
  '/presets': presetsMd,
  '/presets/using': presetsUsingMd,
  '/presets/configuring': presetsConfiguringMd,
  '/uploads': uploadsMd,
  '/signed-urls': signedUrlsMd,
  '/rest-api': restApiMd,
  '/rest-api/guide': restApiGuideMd,
  '/self-hosting': selfHostingMd,
  '/migration': migrationPageMd,
}

/** Resolves `relative` against the folder of the repository file `from`. */
function repoPath(from: string, relative: string): string {
  const parts = from.split('/').slice(0, -1)
  for (const segment of relative.split('/')) {
    if (segment === '..') parts.pop()
    else if (segment !== '.' && segment !== '') parts.push(segment)
  }
  return parts.join('/')
}

const KNOWN_PATHS = new Set([
  ...DOCS_PAGES.map((page) => page.path),
  ...allOperationDocs().map((doc) => doc.docPath),
])

/**
 * A link target in a document, as the site should have it: other documents' pages under the
 * docs base, site paths as they are, and links to files the site does not serve dropped.
 */
function linkTarget(from: string | null, target: string, base: string): string | null {
  if (/^(https?:|mailto:)/i.test(target) || target.startsWith('#')) return target
  const [path = '', hash] = target.split('#')
  const anchor = hash === undefined ? '' : `#${hash}`
  if (path.startsWith('/')) {
    const bare = path.replace(/\/+$/, '')
    return KNOWN_PATHS.has(bare) ? `${base}${bare}${anchor}` : target
  }
  if (from === null) return null
  const page = SOURCE_PAGES[repoPath(from, path)]
  return page === undefined ? null : `${base}${page}${anchor}`
}

/** A page's Markdown with its includes, the operations list and the API reference put in. */
function assemble(source: string, base: string, openApi: OpenApiDocument | null): string {
  const own = rewriteLinks(source, (target) => linkTarget(null, target, base))
  return own.replace(
    /^<!--\s*(include:\s*([^#\s]+)(?:#(\S+))?(?:\s+level=(\d))?|operations|openapi)\s*-->$/gm,
    (_line, what: string, file?: string, anchor?: string, level?: string) => {
      if (what === 'operations') return operationsList(base)
      if (what === 'openapi') {
        return openApi === null
          ? `The OpenAPI document could not be read just now; it is at \`${PUBLIC_API_PATHS.openapi}\`.`
          : rewriteLinks(openApiMarkdown(openApi), (target) => linkTarget(null, target, base))
      }
      const text = file === undefined ? undefined : SOURCES[file]
      if (file === undefined || text === undefined) throw new Error(`Unknown include ${what}`)
      const part = extractSection(text, anchor, level === undefined ? undefined : Number(level))
      if (part === undefined) throw new Error(`No section #${anchor} in ${file}`)
      return rewriteLinks(part, (target) => linkTarget(file, target, base))
    },
  )
}

function operationsList(base: string): string {
  const docs = allOperationDocs()
  const line = (doc: OperationDoc) =>
    `- [${doc.displayName}](${base}${doc.docPath}) — \`${doc.key}\`${doc.runnable ? '' : ' (not run by this server)'}`
  return [
    '### Basic',
    '',
    ...docs.filter((doc) => doc.plugin === 't').map(line),
    '',
    '### AI (ml)',
    '',
    ...docs.filter((doc) => doc.plugin !== 't').map(line),
  ].join('\n')
}

/** An operation's page, written from the catalogue. */
function operationMarkdown(doc: OperationDoc, base: string): string {
  const out: string[] = [
    doc.description,
    '',
    `Written \`${doc.key}(key:value,…)\` in a delivery URL; plugin \`${doc.plugin}\` (${doc.pluginName}).`,
    '',
    doc.runnable
      ? `**This server runs it**${doc.slow ? `, as a background job: the first request answers \`202\` until the image is ready ([slow operations](${base}/url#slow-operations-202))` : ''}.`
      : `**This server does not run it yet**: URLs with it parse and validate, and delivery answers \`501 operation_unavailable\`.`,
    '',
    '## Parameters',
    '',
  ]
  if (doc.params.length === 0) out.push('None.', '')
  else {
    out.push(
      '| key | name | type | default | range or values | required |',
      '|---|---|---|---|---|---|',
    )
    for (const param of doc.params) {
      const values =
        param.enum.length > 0 ? param.enum.map((value) => `\`${value}\``).join(', ') : param.range
      out.push(
        `| \`${param.key}\` | ${param.title} (\`${param.name}\`) | ${param.type} | ${param.default === '' ? '—' : `\`${param.default}\``} | ${values || '—'} | ${param.required ? 'yes' : 'no'} |`,
      )
    }
    out.push('')
  }
  out.push('## Example', '', '```', `/v2/demo/${doc.pattern}/${doc.sample}`, '```', '')
  return out.join('\n')
}

export interface DocsPageData {
  path: string
  title: string
  description: string
  html: string
  headings: RenderedDoc['headings']
  /** Set on an operation's page. */
  operation: OperationDoc | null
}

// Every page is rendered once per process (and per docs base): a bounded set, the site's pages.
const cache = new Map<string, DocsPageData>()

export interface DocsSources {
  base: string
  /** Reads the OpenAPI document (only the REST reference needs it). */
  openApi: () => Promise<OpenApiDocument>
}

/** The page at `path` under the docs base, or undefined when there is none. */
export async function docsPage(
  path: string,
  sources: DocsSources,
): Promise<DocsPageData | undefined> {
  const bare = path.replace(/\/+$/, '')
  const key = `${sources.base} ${bare}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const page = DOCS_PAGES.find((entry) => entry.path === bare)
  let made: DocsPageData
  if (page !== undefined) {
    const source = PAGE_SOURCES[page.path]
    if (source === undefined) return undefined
    let openApi: OpenApiDocument | null = null
    if (source.includes('<!-- openapi -->')) {
      openApi = await sources.openApi().catch(() => null)
    }
    const rendered = renderMarkdown(assemble(source, sources.base, openApi))
    made = { ...pageMeta(page), ...rendered, operation: null }
    // A reference that could not be read is not kept: the next visit tries again.
    if (openApi === null && source.includes('<!-- openapi -->')) return made
  } else {
    const doc = allOperationDocs().find((entry) => entry.docPath === bare)
    if (doc === undefined) return undefined
    made = {
      path: doc.docPath,
      title: `${doc.displayName} (${doc.key})`,
      description: doc.description,
      ...renderMarkdown(operationMarkdown(doc, sources.base)),
      operation: doc,
    }
  }
  cache.set(key, made)
  return made
}

function pageMeta(page: DocsPage) {
  return { path: page.path, title: page.title, description: page.description }
}

export interface SearchHit {
  path: string
  title: string
  snippet: string
}

interface IndexEntry {
  path: string
  title: string
  keys: string
  text: string
}

let index: IndexEntry[] | undefined

/** Every page's words, built once (the REST reference is searched by its guide). */
function searchIndex(): IndexEntry[] {
  index ??= [
    ...DOCS_PAGES.filter((page) => page.path !== '/rest-api').map((page) => {
      const source = assemble(PAGE_SOURCES[page.path] ?? '', '', null)
      return {
        path: page.path,
        title: page.title,
        keys: `${page.title} ${page.description}`.toLowerCase(),
        text: plainText(source),
      }
    }),
    ...allOperationDocs().map((doc) => ({
      path: doc.docPath,
      title: `${doc.displayName} (${doc.key})`,
      keys: `${doc.displayName} ${doc.key} ${doc.pluginName} ${doc.docPath.split('/').pop()?.replace(/-/g, ' ')} ${doc.method}`.toLowerCase(),
      text: plainText(
        `${doc.description} ${doc.params.map((p) => `${p.title} ${p.name}`).join(' ')}`,
      ),
    })),
  ]
  return index
}

/** Pages that hold every word of the query, best first (title and names weigh most). */
export function searchDocs(query: string, limit = 20): SearchHit[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 8)
  if (words.length === 0) return []
  const hits: (SearchHit & { score: number })[] = []
  for (const entry of searchIndex()) {
    const text = entry.text.toLowerCase()
    let score = 0
    let all = true
    for (const word of words) {
      const inKeys = entry.keys.includes(word)
      const count = text.split(word).length - 1
      if (!inKeys && count === 0) {
        all = false
        break
      }
      score += (inKeys ? 20 : 0) + Math.min(count, 10)
    }
    if (!all) continue
    const at = text.indexOf(words[0] ?? '')
    const from = Math.max(0, at - 60)
    const snippet =
      at === -1
        ? entry.text.slice(0, 160)
        : `${from > 0 ? '…' : ''}${entry.text.slice(from, from + 180)}…`
    hits.push({ path: entry.path, title: entry.title, snippet, score })
  }
  return hits
    .sort((a, b) => b.score - a.score || a.title.localeCompare(b.title))
    .slice(0, limit)
    .map(({ score: _score, ...hit }) => hit)
}
