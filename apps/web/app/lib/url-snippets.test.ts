import { objToUrl } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { codeSnippet, curlSnippet, snippet } from './url-snippets.ts'

const URL_WITH_CHAIN =
  "http://localhost:4201/v2/demo/t.resize(w:300,h:200)~t.flip()/samples/it's.png?f_auto=true"

describe('copy snippets', () => {
  it('quotes the URL for a shell', () => {
    expect(curlSnippet(URL_WITH_CHAIN)).toBe(
      `curl -o result 'http://localhost:4201/v2/demo/t.resize(w:300,h:200)~t.flip()/samples/it'\\''s.png?f_auto=true'`,
    )
  })

  it('writes @tessera/url code that builds the same URL', () => {
    const code = codeSnippet(URL_WITH_CHAIN)
    expect(code).toContain("import { objToUrl } from '@tessera/url'")
    const literal = code.slice(
      code.indexOf('objToUrl(') + 'objToUrl('.length,
      code.lastIndexOf(')'),
    )
    // The object literal is JSON with bare keys: quote them back and build the URL.
    const input = JSON.parse(literal.replace(/^(\s*)([A-Za-z_][A-Za-z0-9_]*):/gm, '$1"$2":'))
    expect(objToUrl(input)).toBe(URL_WITH_CHAIN)
  })

  it('gives the URL itself for the URL tab', () => {
    expect(snippet('url', URL_WITH_CHAIN)).toBe(URL_WITH_CHAIN)
  })
})
