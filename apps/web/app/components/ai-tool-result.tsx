// The result half of an AI tool page: the run's progress, its failure (credits, the visitor's
// daily limit, anything else) with a retry, or before and after under a slider with their sizes,
// a download and the URL behind it.
import { formatBytes } from '@tessera/url'
import { useState } from 'react'
import { downloadName, sliderKey } from '../lib/ai-tool.ts'
import { APP_EVENTS, trackAppEvent } from '../lib/app-events.ts'
import { DAILY_LIMIT_CODE } from '../lib/playground-api.ts'
import { ImageWait } from './image-wait.tsx'
import type { useFetchedImage } from './use-fetched-image.ts'

type Fetched = ReturnType<typeof useFetchedImage>

export function ToolResult({
  slug,
  signup,
  onSignup,
  before,
  after,
  runUrl,
  topUp,
}: {
  slug: string
  signup: string
  onSignup: () => void
  before: Fetched
  after: Fetched
  runUrl: string
  topUp: string | undefined
}) {
  const state = after.state
  return (
    <div className="tool-result" data-testid="tool-result">
      {state.status === 'loading' ? (
        <p className="tool-wait" role="status">
          Running…
        </p>
      ) : state.status === 'processing' || state.status === 'cancelled' ? (
        <ImageWait
          image={after}
          className="tool-wait"
          working="the model is working on it"
          retry="Run again"
        />
      ) : state.status === 'failed' ? (
        <div className="tool-alert" role="alert" data-testid="run-error">
          {state.status_code === 402 ? (
            <p>
              Your organisation has no credits left for this AI operation (each run costs one
              credit).{' '}
              {topUp === undefined ? null : (
                <a
                  href={topUp}
                  onClick={() => trackAppEvent(APP_EVENTS.paymentTriggered, { tool: slug })}
                >
                  Buy a top-up
                </a>
              )}
            </p>
          ) : state.code === DAILY_LIMIT_CODE ? (
            // Said here only, where the result would have been: the run is what was refused.
            <p data-testid="daily-limit">
              {state.message}{' '}
              <a href={signup} onClick={onSignup}>
                Sign up
              </a>{' '}
              to keep going with your own credits.
            </p>
          ) : (
            <p>
              The tool could not run: {state.message}
              {state.status_code === 0 ? '' : ` (HTTP ${state.status_code})`}
            </p>
          )}
          <button type="button" className="button is-secondary is-small" onClick={after.retry}>
            Try again
          </button>
        </div>
      ) : null}
      {state.status === 'ready' && before.state.status === 'ready' ? (
        <>
          <CompareSlider before={before.state.src} after={state.src} />
          <dl className="tool-facts">
            <div>
              <dt>Before</dt>
              <dd data-testid="before-size">
                {before.state.details.width} × {before.state.details.height} px ·{' '}
                {formatBytes(before.state.details.bytes)}
              </dd>
            </div>
            <div>
              <dt>After</dt>
              <dd data-testid="after-size">
                {state.details.width} × {state.details.height} px · {state.details.format} ·{' '}
                {formatBytes(state.details.bytes)}
              </dd>
            </div>
          </dl>
          <div className="button-row">
            <a
              className="button is-primary"
              href={state.src}
              download={downloadName(slug, state.details.format)}
            >
              Download
            </a>
          </div>
          <p className="tool-note">The URL behind it:</p>
          <pre className="code-block" data-testid="run-url">
            <code>{state.url === runUrl ? runUrl : state.url}</code>
          </pre>
        </>
      ) : null}
    </div>
  )
}

/** Before and after over each other; the slider (mouse, touch or keys) moves the divide. */
export function CompareSlider({ before, after }: { before: string; after: string }) {
  const [position, setPosition] = useState(50)
  return (
    <div className="compare" data-testid="compare">
      <img className="compare-img" src={after} alt="After" />
      <div className="compare-before" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}>
        <img className="compare-img" src={before} alt="Before" />
      </div>
      <div className="compare-line" style={{ left: `${position}%` }} aria-hidden="true" />
      <input
        className="compare-range"
        type="range"
        min={0}
        max={100}
        value={position}
        aria-label="Before and after divide"
        aria-valuetext={`${position}% before`}
        onChange={(event) => setPosition(Number(event.target.value))}
        onKeyDown={(event) => {
          const next = sliderKey(position, event.key)
          if (next === undefined) return
          event.preventDefault()
          setPosition(next)
        }}
      />
    </div>
  )
}
