// The documentation site's Markdown work, pure and testable: pulling a section out of a document,
// rewriting links between the repository's documents into the site's addresses, and rendering
// with `marked` (headings get GitHub-style anchors, so `api.md#api-tokens` keeps working).
import { Marked, type Tokens } from 'marked'

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-')
}

interface Line {
  text: string
  /** Heading level, or 0 for any other line (lines inside code fences are never headings). */
  level: number
  /** A fence marker or a line inside a fenced code block. */
  code: boolean
}

function linesOf(markdown: string): Line[] {
  let fence: string | null = null
  return markdown.split('\n').map((text) => {
    const marker = /^\s*(```+|~~~+)/.exec(text)?.[1]
    if (marker !== undefined) {
      if (fence === null) fence = marker.slice(0, 3)
      else if (marker.startsWith(fence)) fence = null
      return { text, level: 0, code: true }
    }
    if (fence !== null) return { text, level: 0, code: true }
    const heading = /^(#{1,6})\s/.exec(text)
    return { text, level: heading?.[1]?.length ?? 0, code: false }
  })
}

const headingText = (line: string) => line.replace(/^#{1,6}\s+/, '').trim()

/**
 * The part of a document to include: the section under the heading whose anchor is `anchor`
 * (up to the next heading of the same or a higher level), or the whole document without its
 * `#` title. Headings move so the first one is at `level` (others keep their distance to it).
 * Undefined when the anchor is not there.
 */
export function extractSection(
  markdown: string,
  anchor: string | undefined,
  level: number | undefined,
): string | undefined {
  const lines = linesOf(markdown)
  let start = 0
  let end = lines.length
  if (anchor === undefined) {
    const title = lines.findIndex((line) => line.level === 1)
    if (title !== -1 && lines.slice(0, title).every((line) => line.text.trim() === '')) {
      start = title + 1
    }
  } else {
    start = lines.findIndex((line) => line.level > 0 && slugify(headingText(line.text)) === anchor)
    if (start === -1) return undefined
    const own = lines[start]?.level ?? 1
    const next = lines.findIndex(
      (line, index) => index > start && line.level > 0 && line.level <= own,
    )
    end = next === -1 ? lines.length : next
  }
  const part = lines.slice(start, end)
  const top = Math.min(...part.filter((line) => line.level > 0).map((line) => line.level))
  const shift = level === undefined || !Number.isFinite(top) ? 0 : level - top
  return part
    .map((line) => {
      if (line.level === 0 || shift === 0) return line.text
      const to = Math.min(6, Math.max(1, line.level + shift))
      return `${'#'.repeat(to)} ${headingText(line.text)}`
    })
    .join('\n')
    .trim()
}

/**
 * Rewrites the targets of Markdown links and images outside code: `resolve` gets each target
 * and answers the new one, or null to keep only the link's text (an image's alt text).
 */
export function rewriteLinks(markdown: string, resolve: (target: string) => string | null): string {
  return linesOf(markdown)
    .map((line) => {
      if (line.code) return line.text
      // Inline code spans (odd pieces when split on backtick runs) are left as they are.
      return line.text
        .split(/(`+[^`]*`+)/)
        .map((piece, index) =>
          index % 2 === 1
            ? piece
            : piece.replace(
                /(!?)\[([^\]]*)\]\(([^)\s]+)(\s+"[^"]*")?\)/g,
                (_whole, bang: string, text: string, target: string, title?: string) => {
                  const next = resolve(target)
                  if (next === null) return text
                  return `${bang}[${text}](${next}${title ?? ''})`
                },
              ),
        )
        .join('')
    })
    .join('\n')
}

export interface RenderedDoc {
  html: string
  /** h2 and h3 headings with their anchors, for the page's contents list. */
  headings: { depth: number; text: string; id: string }[]
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )

/** Renders Markdown to HTML with anchors on headings and wide tables in a scrolling box. */
export function renderMarkdown(markdown: string): RenderedDoc {
  const headings: RenderedDoc['headings'] = []
  const used = new Map<string, number>()
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } }, token) {
        const inner = this.parser.parseInline(token.tokens)
        const base = slugify(token.text) || 'section'
        const count = used.get(base) ?? 0
        used.set(base, count + 1)
        const id = count === 0 ? base : `${base}-${count}`
        const plain = inner.replace(/<[^>]*>/g, '')
        if (token.depth === 2 || token.depth === 3) {
          headings.push({ depth: token.depth, text: decodeEntities(plain), id })
        }
        return `<h${token.depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true" tabindex="-1">#</a>${inner}</h${token.depth}>\n`
      },
    },
  })
  // Wide tables scroll inside their own box rather than widening the page.
  const html = marked
    .parse(markdown, { async: false })
    .replace(/<table>/g, '<div class="table-scroll"><table>')
    .replace(/<\/table>/g, '</table></div>')
  return { html, headings }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** Markdown reduced to plain words, for the search index. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_#>|]/g, ' ')
    .replace(/-{3,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

export { escapeHtml }
