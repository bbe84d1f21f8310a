// A prediction's page (SPEC §2.8, §3 prediction page state: schema, operation, apiDetails): a
// form generated from its input schema. Members run it as a job of their organisation and watch
// it queued, polled and done, with the output image and its JSON; visitors are sent to sign up
// and come back here. Models this server cannot run say so, and the server answers 501.
import { ORG_SEGMENT, PANEL_API_PATHS, signRequest } from '@tessera/url'
import { type FormEvent, useState } from 'react'
import { data, Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { PredictionField as Field } from '../components/prediction-field.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { usePageLocation } from '../components/use-page-location.ts'
import { serverApi } from '../lib/api.server.ts'
import { getOrganizations } from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { HttpError } from '../lib/http-client.ts'
import { loginUrl, signupUrl } from '../lib/links.ts'
import {
  buildInput,
  errorMessage,
  type FormValues,
  formFields,
  getPredictionJob,
  getPredictionSchema,
  type PredictionJob,
  pollPredictionJob,
  startPredictionJob,
} from '../lib/predictions.ts'
import { joinUrl } from '../lib/runtime-config.ts'
import { metaFor } from '../lib/seo.ts'
import { hasSessionCookie } from '../lib/session.ts'
import type { Route } from './+types/prediction.ts'
import '../styles/run-status.css'
import './predictions.css'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: args.loaderData?.prediction.displayName ?? 'Prediction',
    description: args.loaderData?.prediction.description ?? 'Run an AI model on an image.',
  })

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  let prediction: Awaited<ReturnType<typeof getPredictionSchema>>
  try {
    prediction = await getPredictionSchema(api.client, api.config, params.id)
  } catch (error) {
    // SPEC §7.2: an unknown id answers 404 (with an empty body).
    if (error instanceof HttpError && error.status === 404) throw data(null, { status: 404 })
    throw error
  }
  // The organisation a member runs it in: the first of their list (SPEC §6). No cookie, no call.
  const organisations = hasSessionCookie(request.headers.get('cookie'))
    ? await getOrganizations(api.client, api.config)
    : null
  return { prediction, orgId: organisations?.[0]?._id ?? null }
}

type Run =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | { phase: 'polling'; job: PredictionJob }
  | { phase: 'done'; job: PredictionJob }
  | { phase: 'error'; code: string; message: string }

const STEPS = ['queued', 'running', 'done'] as const

export default function Prediction({ loaderData }: Route.ComponentProps) {
  const { prediction, orgId } = loaderData
  const config = useConfig()
  const session = useSession()
  const page = usePageLocation()
  const fields = formFields(prediction.schema)
  const [values, setValues] = useState<FormValues>(() =>
    Object.fromEntries(fields.map((field) => [field.name, field.initial])),
  )
  const [invalid, setInvalid] = useState<{ field: string; message: string } | null>(null)
  const [run, setRun] = useState<Run>({ phase: 'idle' })
  const [upload, setUpload] = useState<{ busy: boolean; message: string }>({
    busy: false,
    message: '',
  })
  const member = session.isUserLoggedIn && orgId !== null
  const imageField = fields.find((field) => field.kind === 'image')

  async function uploadImage(file: File) {
    if (orgId === null || imageField === undefined) return
    setUpload({ busy: true, message: `Uploading ${file.name}…` })
    try {
      const url = new URL(
        joinUrl(
          config.apiUrl,
          `${PANEL_API_PATHS.assets}/upload/direct?orgId=${encodeURIComponent(orgId)}`,
        ),
        window.location.origin,
      )
      const form = new FormData()
      form.set('file', file)
      form.set('path', 'prediction-inputs')
      form.set('name', `input-${Date.now().toString(36)}`)
      // Multipart bodies are signed with the hash of the empty string (docs/api.md).
      const headers =
        config.panelSigningKey === ''
          ? {}
          : await signRequest({ method: 'POST', url: url.href }, config.panelSigningKey)
      const response = await fetch(url, {
        method: 'POST',
        body: form,
        headers: { accept: 'application/json', ...headers },
        credentials: 'include',
      })
      const answer = (await response.json().catch(() => null)) as {
        fullPath?: string
        message?: string
      } | null
      if (!response.ok || answer?.fullPath === undefined) {
        throw new Error(answer?.message ?? `The upload answered ${response.status}`)
      }
      const path = answer.fullPath
      setValues((current) => ({ ...current, [imageField.name]: path }))
      setUpload({ busy: false, message: `Uploaded as ${path}` })
    } catch (error) {
      setUpload({
        busy: false,
        message: `Upload failed: ${error instanceof Error ? error.message : 'unknown error'}`,
      })
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!member || orgId === null) return
    const input = buildInput(fields, values)
    if (!input.ok) {
      setInvalid({ field: input.field, message: input.message })
      return
    }
    setInvalid(null)
    setRun({ phase: 'starting' })
    try {
      const started = await startPredictionJob(
        session.client,
        config,
        orgId,
        prediction.id,
        input.body,
      )
      setRun({ phase: 'polling', job: started })
      const finished = await pollPredictionJob(
        () => getPredictionJob(session.client, config, orgId, started.jobId),
        (job) =>
          setRun(
            job.status === 'done' || job.status === 'failed'
              ? { phase: 'done', job }
              : { phase: 'polling', job },
          ),
      )
      setRun({ phase: 'done', job: finished })
    } catch (error) {
      setRun({ phase: 'error', ...errorMessage(error) })
    }
  }

  const job = run.phase === 'polling' || run.phase === 'done' ? run.job : null
  const runnable = prediction.runnable === true
  return (
    <>
      <PageHero
        eyebrow="Prediction"
        title={prediction.displayName ?? prediction.id}
        lead={prediction.description}
      >
        <p className="prediction-meta">
          {prediction.operation === undefined ? null : <code>{prediction.operation}</code>}
          <span className={`run-badge ${runnable ? 'is-on' : 'is-off'}`} data-testid="run-badge">
            {runnable ? 'Runs on this server' : 'Model not available here'}
          </span>
          <Link to="/predictions">All predictions</Link>
        </p>
      </PageHero>
      <section className="section is-flush-top">
        <div className="container prediction-layout">
          <form
            className="card prediction-form"
            onSubmit={(event) => void submit(event)}
            noValidate
            data-testid="prediction-form"
          >
            <h2 className="card-title">Input</h2>
            {runnable ? null : (
              <p className="form-alert is-error" data-testid="model-unavailable">
                This server has no model for <code>{prediction.operation}</code> yet. A run answers{' '}
                <code>501 model_unavailable</code> before anything is queued or charged.
              </p>
            )}
            {fields.map((field) => (
              <div key={field.name}>
                <Field
                  field={field}
                  value={values[field.name] ?? ''}
                  invalid={invalid?.field === field.name}
                  onChange={(value) =>
                    setValues((current) => ({ ...current, [field.name]: value }))
                  }
                />
                {field.kind === 'image' && member ? (
                  <div className="field">
                    <label htmlFor="prediction-upload">Or upload an image</label>
                    <input
                      id="prediction-upload"
                      type="file"
                      accept="image/*"
                      disabled={upload.busy}
                      onChange={(event) => {
                        const file = event.target.files?.[0]
                        if (file !== undefined) void uploadImage(file)
                      }}
                    />
                    {upload.message === '' ? null : (
                      <small role="status" data-testid="upload-status">
                        {upload.message}
                      </small>
                    )}
                  </div>
                ) : null}
                {invalid?.field === field.name ? (
                  <p className="field-error" role="alert">
                    {invalid.message}
                  </p>
                ) : null}
              </div>
            ))}
            {member ? (
              <button
                className="button is-primary"
                type="submit"
                disabled={run.phase === 'starting' || run.phase === 'polling' || upload.busy}
                data-testid="run-prediction"
              >
                Run prediction (1 credit)
              </button>
            ) : session.isUserLoggedIn ? (
              <p className="form-alert is-error">
                Your account has no organisation to run this in.
              </p>
            ) : (
              <div className="button-row">
                <a
                  className="button is-primary"
                  href={signupUrl(config.consoleUrl, page)}
                  data-testid="signup-to-run"
                >
                  Sign up to run it
                </a>
                <a className="button is-secondary" href={loginUrl(config.consoleUrl, page)}>
                  Log in
                </a>
              </div>
            )}
          </form>
          <div className="prediction-output">
            <section className="card" aria-live="polite" data-testid="prediction-run">
              <h2 className="card-title">Result</h2>
              {run.phase === 'idle' ? (
                <p>Run the prediction to see its output image and JSON here.</p>
              ) : null}
              {run.phase === 'starting' ? <p role="status">Starting the job…</p> : null}
              {run.phase === 'error' ? (
                <p className="form-alert is-error" role="alert" data-testid="run-error">
                  <code>{run.code}</code>: {run.message}
                </p>
              ) : null}
              {job === null ? null : (
                <>
                  <ol className="job-steps" data-testid="job-steps">
                    {STEPS.map((step) => {
                      const order = STEPS.indexOf(job.status === 'failed' ? 'done' : job.status)
                      const state =
                        STEPS.indexOf(step) < order
                          ? 'is-past'
                          : STEPS.indexOf(step) === order
                            ? 'is-now'
                            : ''
                      return (
                        <li key={step} className={state}>
                          {step === 'done' && job.status === 'failed' ? 'failed' : step}
                        </li>
                      )
                    })}
                  </ol>
                  <p data-testid="job-status">
                    Job <code>{job.jobId}</code>: <strong>{job.status}</strong>
                  </p>
                  {job.result === undefined ? null : (
                    <img
                      className="prediction-result"
                      src={job.result.url}
                      alt={`Output of ${prediction.displayName ?? prediction.id}`}
                      width={job.result.width}
                      height={job.result.height}
                      data-testid="prediction-result"
                    />
                  )}
                  <pre className="prediction-json" data-testid="prediction-json">
                    <code>{JSON.stringify(job, null, 2)}</code>
                  </pre>
                </>
              )}
            </section>
            {prediction.apiDetails === undefined ? null : (
              <section className="card">
                <h2 className="card-title">From your code</h2>
                <p>
                  As a job:{' '}
                  <code>
                    POST {PANEL_API_PATHS.transformation}/{ORG_SEGMENT}/{'{orgId}'}/predictions/
                    {prediction.id}
                  </code>{' '}
                  with this JSON, then poll <code>…/predictions/jobs/{'{jobId}'}</code>.
                </p>
                {prediction.apiDetails.urlTemplate === undefined ? null : (
                  <>
                    <p>As a delivery URL:</p>
                    <pre className="prediction-json">
                      <code>{prediction.apiDetails.urlTemplate}</code>
                    </pre>
                  </>
                )}
                {prediction.apiDetails.notes === undefined ? null : (
                  <p>{prediction.apiDetails.notes}</p>
                )}
              </section>
            )}
          </div>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
