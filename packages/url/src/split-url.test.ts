import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidUrlError } from './errors.ts'
import { splitUrl } from './split-url.ts'

function standard(url: string) {
  const parsed = new URL(url)
  return {
    protocol: parsed.protocol,
    host: parsed.host,
    pathname: parsed.pathname,
    search: parsed.search,
  }
}

describe('splitUrl gives the answer of the WHATWG URL parser', () => {
  it.each([
    'https://cdn.example.com/v2/demo/original/a.jpg',
    'http://localhost:4201/v2/demo/t.resize(w:1)/a.jpg?dpr=2#x',
    'https://cdn.example.com',
    'https://cdn.example.com?x=1',
    'https://cdn.example.com/?',
    'https://CDN.example.com/a',
    'https://cdn.example.com:443/a',
    'http://cdn.example.com:80/a',
    'http://cdn.example.com:8080/a',
    'https://127.1/a',
    'https://0x7f.0.0.1/a',
    'https://1.2.3.4/a',
    'https://[::1]:4201/a',
    'https://user:pass@cdn.example.com/a',
    'https://cdn.example.com/a/./b/../c',
    'https://cdn.example.com/a/%2e%2E/c',
    'https://cdn.example.com/a b/c"d<e>f`g{h}',
    'https://cdn.example.com/a\\b',
    'https://cdn.example.com/ü/ñ',
    'https://bücher.example/a',
    "https://cdn.example.com/a?b='c' d",
    '  https://cdn.example.com/a\t\n/b  ',
    'https://cdn.example.com/a#frag ment',
    'https://cdn.example.com:0080/a',
    'https://cdn.example.com./a',
  ])('for %j', (url) => {
    expect(splitUrl(url)).toEqual(standard(url))
  })

  it('agrees with the WHATWG parser on generated URLs', () => {
    const text = (chars: string) =>
      fc.string({ unit: fc.constantFrom(...chars.split('')), maxLength: 12 })
    const url = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTP://'),
        text('abcXY09-.'),
        fc.option(fc.integer({ min: 0, max: 70000 }).map(String), { nil: undefined }),
        fc.array(text('abz09._~()-:,%2eE $"<>{}`\\ü'), { maxLength: 5 }),
        fc.option(text("a=&?'<> %d1"), { nil: undefined }),
        fc.option(text('ab# \t'), { nil: undefined }),
      )
      .map(
        ([scheme, host, port, segments, query, fragment]) =>
          `${scheme}${host}${port === undefined ? '' : `:${port}`}/${segments.join('/')}${
            query === undefined ? '' : `?${query}`
          }${fragment === undefined ? '' : `#${fragment}`}`,
      )
    fc.assert(
      fc.property(url, (input) => {
        let expected: ReturnType<typeof standard> | 'error'
        try {
          expected = standard(input)
        } catch {
          expected = 'error'
        }
        if (expected === 'error') {
          expect(() => splitUrl(input)).toThrowError(InvalidUrlError)
        } else {
          expect(splitUrl(input)).toEqual(expected)
        }
      }),
      { numRuns: 3000 },
    )
  })

  it.each(['', 'https://', 'mailto:a@b.c', 'file:///etc/passwd', 'cdn.example.com/a'])(
    'refuses %j',
    (url) => {
      expect(() => splitUrl(url)).toThrowError(InvalidUrlError)
    },
  )
})
