import { useEffect, useState } from 'react'
import { Link, redirect } from 'react-router'
import { Logo } from '../components/icons.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { serverApi } from '../lib/api.server.ts'
import { getSession } from '../lib/api.ts'
import { useConfig } from '../lib/app-context.tsx'
import { sampleUrl } from '../lib/images.ts'
import { playgroundUrl } from '../lib/links.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/playground.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Playground',
    description: 'Chain transformations and presets on a sample image and copy the delivery URL.',
  })

// SPEC §2.1: a signed-in visitor goes to the organisation chooser, on to the org's playground.
export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  if (request.headers.get('cookie')?.includes('bg.session=') === true) {
    const user = await getSession(api.client, api.config).catch(() => null)
    if (user !== null) throw redirect(playgroundUrl(api.config.consoleUrl))
  }
  return null
}

const TABS = ['original', 'transformed', 'result'] as const

/** The anonymous playground renders only in the browser (SPEC §2.1). */
export default function Playground() {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  return mounted ? <ClientPlayground /> : <div className="playground-loading" aria-busy="true" />
}

function ClientPlayground() {
  const config = useConfig()
  const [tab, setTab] = useState<(typeof TABS)[number]>('result')
  const chain = tab === 'original' ? '' : tab === 'transformed' ? '~t.flip()' : '~t.flip()~t.grey()'
  return (
    <div className="playground" data-testid="playground">
      <header className="playground-bar">
        <Link to="/" className="site-logo">
          <Logo /> <span>Tessera</span> <span className="pill playground-pill">Playground</span>
        </Link>
        <a className="button is-primary is-small" href={playgroundUrl(config.consoleUrl)}>
          Use your own images
        </a>
      </header>
      <div className="playground-body">
        <div role="tablist" aria-label="Image" className="interval-toggle">
          {TABS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              onClick={() => setTab(name)}
            >
              {name[0]?.toUpperCase()}
              {name.slice(1)}
            </button>
          ))}
        </div>
        <img
          src={sampleUrl(config.deliveryUrl, 'astronaut.png', 720, undefined, chain)}
          alt={`The sample image, ${tab}`}
          width={720}
          height={720}
          className="playground-image"
        />
        <p className="playground-url">
          <code>{`/v2/demo/t.resize(w:720)${chain}/samples/astronaut.png`}</code>
        </p>
      </div>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
