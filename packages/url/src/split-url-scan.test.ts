import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitUrl } from './split-url.ts'

// splitUrl's own scan reads the path, the query and the fragment with different rules; these
// inputs put each special character in each part, where `split-url.test.ts` does not.
function standard(url: string) {
  const parsed = new URL(url)
  return {
    protocol: parsed.protocol,
    host: parsed.host,
    pathname: parsed.pathname,
    search: parsed.search,
  }
}

describe('splitUrl reads each part of a URL by its own rules', () => {
  it.each([
    "https://cdn.example.com/a'b/c",
    "https://cdn.example.com/a'b?c'd",
    'https://cdn.example.com/a?b/c%2e/../d',
    'https://cdn.example.com/a#b?c',
    'https://cdn.example.com/a?b#c?d/../e',
    'https://cdn.example.com/a/.',
    'https://cdn.example.com/a/..?b',
    'https://cdn.example.com/a/.b/..c/...',
    'https://xn--bcher-kva.example/a',
    'https://a.xn--bcher-kva/a',
    'https://xn--a/a',
    'https://axn--/b',
  ])('as the WHATWG parser does for %j', (url) => {
    expect(splitUrl(url)).toEqual(standard(url))
  })

  it('agrees with the WHATWG parser with any printable character in any part', () => {
    const text = fc.string({ unit: fc.constantFrom(...'a/.%2eE?#\'"<>`{}\\ ~(),:'.split('')) })
    fc.assert(
      fc.property(text, (rest) => {
        const url = `https://cdn.example.com/${rest}`
        expect(splitUrl(url)).toEqual(standard(url))
      }),
      { numRuns: 5000 },
    )
  })
})
