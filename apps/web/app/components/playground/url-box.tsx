// The delivery URL of the chain as a URL, a cURL command or @tessera/url code, with copy,
// share link and (members) the transformation context call.
import { useState } from 'react'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { describeFailure, getTransformationContext } from '../../lib/playground-api.ts'
import { type SnippetKind, snippet } from '../../lib/url-snippets.ts'
import type { PlaygroundOrg } from './source-picker.tsx'

export function UrlBox({
  url,
  org,
  pagePath,
}: {
  url: string
  org: PlaygroundOrg | undefined
  pagePath: string
}) {
  const config = useConfig()
  const { client } = useSession()
  const [kind, setKind] = useState<SnippetKind>('url')
  const [copied, setCopied] = useState<string | null>(null)
  const [context, setContext] = useState<{ ok: boolean; text: string } | null>(null)
  const text = snippet(kind, url)
  const share = `${window.location.origin}${pagePath}?url=${encodeURIComponent(url)}`
  const copy = async (value: string, what: string) => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(`${what} copied`)
    } catch {
      setCopied('Copying is blocked here: select the text and copy it.')
    }
  }
  return (
    <section className="pg-panel pg-url" aria-labelledby="pg-url-heading">
      <div className="pg-panel-head">
        <h2 id="pg-url-heading">Delivery URL</h2>
        <div className="interval-toggle pg-option-tabs">
          {(['url', 'curl', 'code'] as const).map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={kind === name}
              onClick={() => setKind(name)}
            >
              {name === 'url' ? 'URL' : name === 'curl' ? 'cURL' : '@tessera/url'}
            </button>
          ))}
        </div>
      </div>
      <pre className="code-block" data-testid="url-snippet">
        <code>{text}</code>
      </pre>
      <div className="button-row">
        <button
          type="button"
          className="button is-primary is-small"
          onClick={() => copy(text, kind === 'url' ? 'URL' : kind === 'curl' ? 'cURL' : 'Code')}
        >
          Copy
        </button>
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={() => copy(share, 'Link')}
        >
          Copy share link
        </button>
        {org === undefined ? null : (
          <button
            type="button"
            className="button is-secondary is-small"
            onClick={async () => {
              try {
                const answer = await getTransformationContext(client, config, url)
                setContext({ ok: true, text: JSON.stringify(answer, null, 2) })
              } catch (error) {
                const failure = describeFailure(error)
                setContext({
                  ok: false,
                  text: `The context call answered ${failure.status}: ${failure.message}`,
                })
              }
            }}
          >
            Context
          </button>
        )}
        <span role="status" className="pg-copied">
          {copied}
        </span>
      </div>
      {context === null ? null : context.ok ? (
        <pre className="code-block" data-testid="context">
          <code>{context.text}</code>
        </pre>
      ) : (
        <p className="pg-alert" role="alert" data-testid="context">
          {context.text}
        </p>
      )}
    </section>
  )
}
