import { describe, expect, it } from 'vitest'
import {
  copyText,
  crumbs,
  normalisePath,
  parentOf,
  presetPattern,
  thumbnailUrl,
  withPattern,
} from './console-urls.ts'

const url = 'http://localhost:4201/v2/ada-x3k9q2/original/products/shoe 1.jpg'

describe('delivery URLs in the console (SPEC §7.3)', () => {
  it('puts a pattern where `original` is', () => {
    expect(withPattern(url, 't.resize(w:300)')).toBe(
      'http://localhost:4201/v2/ada-x3k9q2/t.resize(w:300)/products/shoe 1.jpg',
    )
    expect(withPattern(url, '  ')).toBe(url)
    // Through the session's preview path, so signed-URL organisations see their thumbnails.
    const thumb = new URL(thumbnailUrl(url, 64), 'http://localhost:4201')
    expect(thumb.pathname).toBe('/service/panel/transformation/v1.0/preview')
    expect(thumb.searchParams.get('url')).toBe(
      'http://localhost:4201/v2/ada-x3k9q2/t.resize(w:64,h:64)/products/shoe 1.jpg',
    )
  })

  it('writes presets as p:name, with variables when given', () => {
    expect(presetPattern('card')).toBe('p:card')
    expect(presetPattern('card', { w: '200', h: '' })).toBe('p:card(w:200)')
  })

  it('copies as URL, cURL, HTML and JavaScript, quoting what needs it', () => {
    expect(copyText(url, 'url', 'shoe.jpg')).toBe(url)
    expect(copyText("http://x/v2/c/original/it's.jpg", 'curl', "it's.jpg")).toBe(
      `curl -o 'it'\\''s.jpg' 'http://x/v2/c/original/it'\\''s.jpg'`,
    )
    expect(copyText('http://x/a"b.jpg', 'html', 'a')).toBe(
      '<img src="http://x/a&quot;b.jpg" alt="" loading="lazy">',
    )
    expect(copyText(url, 'js', 'shoe.jpg')).toContain(`fetch(${JSON.stringify(url)})`)
  })

  it('walks folder paths', () => {
    expect(parentOf('a/b/c.jpg')).toBe('a/b')
    expect(parentOf('c.jpg')).toBe('')
    expect(normalisePath(' /a//b / ')).toBe('a/b')
    expect(crumbs('a/b')).toEqual([
      { name: 'All files', path: '' },
      { name: 'a', path: 'a' },
      { name: 'b', path: 'a/b' },
    ])
  })
})
