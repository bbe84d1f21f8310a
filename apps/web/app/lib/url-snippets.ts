// The result's delivery URL as the playground offers to copy it: the URL, a cURL command and
// `@tessera/url` code that builds the same URL.
import { parseQueryOptions, urlToObj } from '@tessera/url'

export type SnippetKind = 'url' | 'curl' | 'code'

/** Single-quotes text for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

export function curlSnippet(url: string): string {
  return `curl -o result ${shellQuote(url)}`
}

/** `objToUrl` code giving `url` back (a test checks it does). */
export function codeSnippet(url: string): string {
  const obj = urlToObj(url)
  const transformations = obj.transformations.map((t) => ({
    plugin: t.plugin,
    name: t.name,
    ...(t.values === undefined ? {} : { values: t.values }),
  }))
  const options = parseQueryOptions(new URL(url).search)
  const input = {
    baseUrl: obj.baseUrl,
    cloudName: obj.cloudName,
    ...(obj.zone === undefined ? {} : { zone: obj.zone }),
    filePath: obj.filePath,
    transformations,
    ...(Object.keys(options).length === 0 ? {} : { options }),
  }
  const body = JSON.stringify(input, null, 2).replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1:')
  return `import { objToUrl } from '@tessera/url'\n\nconst url = objToUrl(${body})\n`
}

export function snippet(kind: SnippetKind, url: string): string {
  return kind === 'url' ? url : kind === 'curl' ? curlSnippet(url) : codeSnippet(url)
}
