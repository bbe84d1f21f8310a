// The image side of the playground: the Original / Transformed / Result tabs, the image in its
// loading, processing, failed or ready state, and the details of the original and shown image.
import { formatBytes } from '@tessera/url'
import type { ReactNode } from 'react'
import { useConfig } from '../../lib/app-context.tsx'
import { APP_EVENTS, trackAppEvent } from '../../lib/app-events.ts'
import { signupUrl } from '../../lib/links.ts'
import { DAILY_LIMIT_CODE } from '../../lib/playground-api.ts'
import { joinUrl } from '../../lib/runtime-config.ts'
import { ImageWait } from '../image-wait.tsx'
import type { useFetchedImage } from '../use-fetched-image.ts'
import type { AiRun } from './ai-run.ts'
import {
  type ImageDetails,
  PLAYGROUND_TABS,
  type PlaygroundTab,
  PREVIEW_SUFFIX,
} from './playground-state.ts'
import type { PlaygroundOrg } from './source-picker.tsx'

export const TAB_LABELS: Record<PlaygroundTab, string> = {
  original: 'Original',
  transformed: 'Transformed',
  result: 'Result',
}

export function ImageTabs({
  tab,
  onTab,
  previewing,
  view,
  pending,
  limitMessage,
  org,
  originalDetails,
  previewDetails,
}: {
  tab: PlaygroundTab
  onTab: (tab: PlaygroundTab) => void
  /** Whether an item is selected, so the Transformed tab shows the chain up to it. */
  previewing: boolean
  view: ImageView
  pending: ReactNode
  limitMessage: string | null
  org: PlaygroundOrg | undefined
  originalDetails: ImageDetails | null
  previewDetails: ImageDetails | null
}) {
  return (
    <>
      <div role="tablist" aria-label="Image" className="interval-toggle pg-tabs">
        {PLAYGROUND_TABS.map((name) => (
          <button
            key={name}
            id={`pg-tab-${name}`}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls="pg-image-panel"
            onClick={() => onTab(name)}
          >
            {TAB_LABELS[name]}
            {name === 'transformed' && previewing ? ` ${PREVIEW_SUFFIX}` : ''}
          </button>
        ))}
      </div>
      <div
        id="pg-image-panel"
        role="tabpanel"
        aria-labelledby={`pg-tab-${tab}`}
        className="pg-stage"
        data-testid="image-panel"
      >
        <ImageStage
          view={view}
          pending={pending}
          alt={`${TAB_LABELS[tab]} image`}
          limitMessage={limitMessage}
          org={org}
        />
      </div>
      <div className="pg-details">
        <Details title="Original" details={originalDetails} testId="original-details" />
        <Details title={TAB_LABELS[tab]} details={previewDetails} testId="result-details" />
      </div>
    </>
  )
}

export type ImageView = ReturnType<typeof useFetchedImage>

export function ImageStage({
  view,
  pending,
  alt,
  limitMessage,
  org,
}: {
  view: ImageView
  /** Shown while there is no image yet or it loads (the visitor's first sample), if not null. */
  pending: ReactNode
  alt: string
  limitMessage: string | null
  org: PlaygroundOrg | undefined
}) {
  const config = useConfig()
  const { state } = view
  switch (state.status) {
    case 'idle':
      if (pending !== null) return pending
      return <p className="pg-empty">Choose an image to start.</p>
    case 'loading':
      if (pending !== null) return pending
      return (
        <p className="pg-wait" role="status">
          Loading the image…
        </p>
      )
    case 'processing':
    case 'cancelled':
      return (
        <ImageWait
          image={view}
          className="pg-wait"
          working="the server is still working on this image"
          retry="Try again"
        />
      )
    case 'failed':
      return (
        <div className="pg-alert" role="alert" data-testid="image-error">
          <p>
            {state.status_code === 402 ? (
              <>
                The organisation has no credits left for AI operations.{' '}
                {org === undefined ? null : (
                  <a
                    href={joinUrl(config.consoleUrl, `/organization/${org.id}/billing`)}
                    onClick={() =>
                      trackAppEvent(APP_EVENTS.paymentTriggered, { where: 'playground' })
                    }
                  >
                    Top up credits
                  </a>
                )}
              </>
            ) : state.code === DAILY_LIMIT_CODE ? (
              <span data-testid="daily-limit">
                {limitMessage ?? state.message}{' '}
                <a
                  href={signupUrl(config.consoleUrl, window.location)}
                  onClick={() => trackAppEvent(APP_EVENTS.signupTriggered, { where: 'playground' })}
                >
                  Sign up
                </a>{' '}
                to keep going with your own credits.
              </span>
            ) : (
              <>
                The image could not be made: {state.message}
                {state.status_code === 0 ? '' : ` (HTTP ${state.status_code})`}
              </>
            )}
          </p>
          <button type="button" className="button is-secondary is-small" onClick={view.retry}>
            Try again
          </button>
        </div>
      )
    case 'ready':
      // A video (a video source, or a chain that writes mp4/webm) plays in place.
      if (state.details.format === 'mp4' || state.details.format === 'webm') {
        return (
          <video
            className="pg-image"
            src={state.src}
            aria-label={alt}
            width={state.details.width || undefined}
            height={state.details.height || undefined}
            data-url={state.url}
            data-testid="pg-video"
            controls
            muted
            loop
            playsInline
          />
        )
      }
      return (
        <img
          className="pg-image"
          src={state.src}
          alt={alt}
          width={state.details.width || undefined}
          height={state.details.height || undefined}
          data-url={state.url}
        />
      )
  }
}

export function Details({
  title,
  details,
  testId,
}: {
  title: string
  details: ImageDetails | null
  testId: string
}) {
  return (
    <dl className="pg-detail" data-testid={testId}>
      <dt>{title}</dt>
      <dd>
        {details === null
          ? '—'
          : `${details.width} × ${details.height} px · ${details.format} · ${formatBytes(details.bytes)}`}
      </dd>
    </dl>
  )
}

/**
 * What an AI step will cost, asked before it runs: its part of the chain runs once on the
 * Run button, and edits of the steps after it reuse the result at no cost.
 */
export function AiRunPrompt({
  run,
  visitor,
  onRun,
}: {
  run: AiRun
  visitor: boolean
  onRun: () => void
}) {
  const names = run.steps.join(', ')
  const cost = visitor
    ? `${run.credits} of your free AI runs for today`
    : `${run.credits} credit${run.credits === 1 ? '' : 's'}`
  return (
    <div className="pg-wait pg-run" data-testid="ai-run">
      <p>
        <strong>{names}</strong> runs an AI model: {cost}, charged once. Editing the steps after it
        reuses the result and costs nothing; an image already run through it is not charged again.
      </p>
      <button type="button" className="button is-primary is-small" onClick={onRun}>
        Run ({cost})
      </button>
    </div>
  )
}
