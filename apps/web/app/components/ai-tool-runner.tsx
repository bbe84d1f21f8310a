// The working half of an AI tool page: pick a sample, drop or choose an image (with upload
// progress), run the tool's transformation, and compare before and after with a slider; the
// result's size, a download and the URL behind it (ai-tool-result.tsx). Visitors work in the
// demo organisation (the visitor upload and signing calls, with their daily limit); signed-in
// users in their active organisation with its credits. The tool page loads this module once it
// has painted (routes/ai-tool.tsx); its stylesheet is the page's own, so the server's markup is
// styled at once.

import { useEffect, useId, useState } from 'react'
import { isAiTool, isToolRunnable, originalUrl, toolRunUrl } from '../lib/ai-tool.ts'
import type { DynamicApp } from '../lib/api.ts'
import { getOrganizations } from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { APP_EVENTS, trackAppEvent } from '../lib/app-events.ts'
import { billingUrl, signupUrl } from '../lib/links.ts'
import {
  DAILY_LIMIT_CODE,
  DEMO_CLOUD_NAME,
  describeFailure,
  getCredits,
  SAMPLE_FILES,
  sampleThumbnailUrl,
  uploadAsMember,
  uploadAsVisitor,
} from '../lib/playground-api.ts'
import { absoluteUrl } from '../lib/runtime-config.ts'
import { ToolResult } from './ai-tool-result.tsx'
import { useCaptcha } from './captcha.tsx'
import { HiddenFileInput, UploadProgress } from './file-pick.tsx'
import { useDeliveryRun } from './use-delivery-run.ts'
import { useFetchedImage } from './use-fetched-image.ts'
import { usePageLocation } from './use-page-location.ts'

interface Workspace {
  orgId?: string
  cloudName: string
  credits?: number
}

type Upload =
  | { status: 'idle' }
  | { status: 'uploading'; progress: number; name: string }
  | { status: 'failed'; message: string; limit: boolean }

export function AiToolRunner({ app }: { app: DynamicApp }) {
  const config = useConfig()
  const session = useSession()
  const page = usePageLocation()
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  const runnable = isToolRunnable(app)
  const deliveryBase = mounted
    ? absoluteUrl(config.deliveryUrl, window.location.origin).replace(/\/$/, '')
    : ''
  const [workspace, setWorkspace] = useState<Workspace>({ cloudName: DEMO_CLOUD_NAME })
  const [filePath, setFilePath] = useState<string | null>(null)
  const [upload, setUpload] = useState<Upload>({ status: 'idle' })
  const [dragging, setDragging] = useState(false)
  const inputId = useId()
  const captcha = useCaptcha(app.slug)
  const trackSignup = () => trackAppEvent(APP_EVENTS.signupTriggered, { tool: app.slug })

  // Signed in: the active organisation and its credits.
  useEffect(() => {
    if (!session.isUserLoggedIn) {
      setWorkspace({ cloudName: DEMO_CLOUD_NAME })
      return
    }
    let live = true
    void (async () => {
      const orgs = await getOrganizations(session.client, config)
      const org = orgs?.[0]
      if (!live || org === undefined || org.cloudName === undefined) return
      const credits = await getCredits(session.client, config, org._id).catch(() => undefined)
      if (live) {
        setWorkspace({
          orgId: org._id,
          cloudName: org.cloudName,
          ...(credits === undefined ? {} : { credits }),
        })
      }
    })()
    return () => {
      live = false
    }
  }, [session.isUserLoggedIn, session.client, config])

  const transformation = app.config.transformation ?? ''
  // Samples live in the demo organisation whoever runs the tool.
  const cloudName =
    filePath?.startsWith('samples/') === true ? DEMO_CLOUD_NAME : workspace.cloudName
  const runUrl =
    filePath === null || !runnable || deliveryBase === ''
      ? null
      : toolRunUrl({ deliveryBase, cloudName, transformation, filePath })
  const beforeUrl =
    filePath === null || deliveryBase === ''
      ? null
      : originalUrl({ deliveryBase, cloudName, filePath })

  const before = useFetchedImage(beforeUrl)
  const after = useDeliveryRun(runUrl, {
    tags: { tool: app.slug },
    signed: isAiTool(app),
    // The samples are the demo's: the visitor call signs those.
    memberOrgId: cloudName === DEMO_CLOUD_NAME ? undefined : workspace.orgId,
    captcha,
    limitApplies: true,
    onReady: () => {
      if (workspace.orgId !== undefined && isAiTool(app)) {
        getCredits(session.client, config, workspace.orgId).then(
          (credits) => setWorkspace((current) => ({ ...current, credits })),
          () => undefined,
        )
      }
    },
  })

  const onFile = async (file: File) => {
    trackAppEvent(APP_EVENTS.fileUpload, { tool: app.slug, size: file.size })
    setUpload({ status: 'uploading', progress: 0, name: file.name })
    const onProgress = (fraction: number) =>
      setUpload({ status: 'uploading', progress: Math.round(fraction * 100), name: file.name })
    try {
      if (workspace.orgId === undefined) {
        const captchaToken = await captcha.token()
        const answer = await uploadAsVisitor(config, file, {
          onProgress,
          ...(captchaToken === undefined ? {} : { captchaToken }),
        })
        setFilePath(answer.file.path)
      } else {
        const answer = await uploadAsMember(config, workspace.orgId, file, { onProgress })
        setFilePath(answer.fullPath)
      }
      setUpload({ status: 'idle' })
      trackAppEvent(APP_EVENTS.uploadSuccess, { tool: app.slug })
    } catch (error) {
      const failure = describeFailure(error)
      trackAppEvent(APP_EVENTS.uploadFailed, { tool: app.slug, code: failure.code })
      const isLimit = failure.code === DAILY_LIMIT_CODE
      if (isLimit) trackAppEvent(APP_EVENTS.dailyLimitExceeded, { tool: app.slug })
      if (failure.code.startsWith('captcha')) {
        trackAppEvent(APP_EVENTS.captchaFailed, { tool: app.slug })
      }
      setUpload({
        status: 'failed',
        limit: isLimit,
        message:
          workspace.orgId === undefined && failure.status === 404
            ? 'Uploading your own image is not available on this server: try one of the samples, or sign up to use your own images.'
            : failure.message,
      })
    }
  }

  if (!runnable) {
    return (
      <section className="section tool-runner" aria-labelledby="tool-run-heading">
        <div className="container">
          <h2 id="tool-run-heading">Try it</h2>
          <p className="lead" data-testid="tool-not-runnable">
            This tool’s operation ({transformation || 'none'}) does not run on this server yet, so
            it cannot be tried here.
          </p>
        </div>
      </section>
    )
  }

  return (
    <section className="section tool-runner" aria-labelledby="tool-run-heading">
      <div className="container">
        <div className="tool-runner-head">
          <h2 id="tool-run-heading">Try it</h2>
          {workspace.orgId === undefined ? (
            <p className="tool-note">
              Running as a visitor on the demo organisation.{' '}
              <a href={signupUrl(config.consoleUrl, page)} onClick={trackSignup}>
                Sign up
              </a>{' '}
              to run it on your own files with your credits.
            </p>
          ) : (
            <p className="tool-note" data-testid="tool-credits">
              Running in your organisation ({workspace.cloudName})
              {workspace.credits === undefined ? '' : ` · ${workspace.credits} credits left`}
            </p>
          )}
        </div>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the label inside is the control */}
        <div
          className={dragging ? 'tool-drop is-dragging' : 'tool-drop'}
          data-testid="drop-zone"
          onDragOver={(event) => {
            event.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault()
            setDragging(false)
            const file = event.dataTransfer.files[0]
            if (file !== undefined) void onFile(file)
          }}
        >
          <p>Drop an image here, or</p>
          <label htmlFor={inputId} className="button is-primary">
            Choose an image
          </label>
          <HiddenFileInput id={inputId} accept="image/*" onFile={(file) => void onFile(file)} />
          {upload.status === 'uploading' ? (
            <UploadProgress percent={upload.progress} label={`Uploading ${upload.name}`} />
          ) : null}
          {upload.status === 'failed' ? (
            <p className="tool-alert" role="alert" data-testid="upload-error">
              {upload.message}
              {upload.limit ? (
                <>
                  {' '}
                  <a href={signupUrl(config.consoleUrl, page)} onClick={trackSignup}>
                    Sign up
                  </a>{' '}
                  to keep going with your own files.
                </>
              ) : null}
            </p>
          ) : null}
          <p className="tool-note">or pick a sample:</p>
          <ul className="tool-samples" aria-label="Samples">
            {SAMPLE_FILES.map((file) => (
              <li key={file}>
                <button
                  type="button"
                  aria-label={`Sample ${file}`}
                  aria-pressed={filePath === `samples/${file}`}
                  onClick={() => setFilePath(`samples/${file}`)}
                >
                  <img
                    src={sampleThumbnailUrl(config, file, 56)}
                    alt=""
                    width={56}
                    height={56}
                    loading="lazy"
                  />
                </button>
              </li>
            ))}
          </ul>
          {workspace.orgId === undefined ? captcha.widget : null}
        </div>

        {filePath === null ? null : (
          <ToolResult
            slug={app.slug}
            signup={signupUrl(config.consoleUrl, page)}
            onSignup={trackSignup}
            before={before}
            after={after}
            runUrl={runUrl ?? ''}
            topUp={
              workspace.orgId === undefined
                ? undefined
                : billingUrl(config.consoleUrl, workspace.orgId, 'topup')
            }
          />
        )}
      </div>
    </section>
  )
}
