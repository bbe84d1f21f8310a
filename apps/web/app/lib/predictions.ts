// Predictions (SPEC §2.8, §3, §4, §7.2, §8): the list's state rules, the form generated from a
// prediction's input schema, and the job a member runs (queued → running → done or failed).
import { ORG_SEGMENT, PANEL_API_PATHS, PUBLIC_API_PATHS } from '@tessera/url'
import type { HttpClient } from './http-client.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'

export const PREDICTIONS_FAILED = 'Failed to load predictions'

export interface PredictionItem {
  id: string
  displayName?: string
  description?: string
  operation?: string
  runnable?: boolean
  slow?: boolean
  tags?: string[]
  thumbnailURL?: string
}

// ── the list (SPEC §3 predictions state, §4) ─────────────────────────────────────────────────

export interface PredictionsState {
  list: PredictionItem[]
  loading: boolean
  error: string | null
}

export type PredictionsAction =
  | { type: 'fetch_request' }
  | { type: 'fetch_success'; items: PredictionItem[] }
  | { type: 'fetch_failure'; error: string }

export const INITIAL_PREDICTIONS: PredictionsState = { list: [], loading: false, error: null }

/** Request sets loading and clears the error; success sets the list; failure sets the error. */
export function predictionsReducer(
  state: PredictionsState,
  action: PredictionsAction,
): PredictionsState {
  switch (action.type) {
    case 'fetch_request':
      return { ...state, loading: true, error: null }
    case 'fetch_success':
      return { list: action.items, loading: false, error: null }
    case 'fetch_failure':
      return { ...state, loading: false, error: action.error }
  }
}

// ── the schema and its form ──────────────────────────────────────────────────────────────────

export interface SchemaProperty {
  type?: string
  format?: string
  title?: string
  description?: string
  enum?: string[]
  default?: string | number | boolean
  minimum?: number
  maximum?: number
  pattern?: string
  'x-param'?: string
}

export interface PredictionSchema extends PredictionItem {
  schema: {
    title?: string
    properties: Record<string, SchemaProperty>
    required?: string[]
  }
  apiDetails?: {
    method?: string
    urlTemplate?: string
    example?: string
    runnable?: boolean
    async?: boolean
    notes?: string
  }
}

export type FieldKind = 'image' | 'select' | 'checkbox' | 'integer' | 'number' | 'text'

export interface FormField {
  name: string
  kind: FieldKind
  label: string
  description: string
  required: boolean
  options: string[]
  min?: number
  max?: number
  pattern?: string
  /** The starting value as the control holds it ('' for none; 'true'/'false' for checkboxes). */
  initial: string
}

/** One control per schema property, the image first, in the schema's order otherwise. */
export function formFields(schema: PredictionSchema['schema']): FormField[] {
  const required = new Set(schema.required ?? [])
  const fields = Object.entries(schema.properties).map(([name, property]): FormField => {
    const kind: FieldKind =
      property.format === 'uri' || name === 'image'
        ? 'image'
        : property.enum !== undefined
          ? 'select'
          : property.type === 'boolean'
            ? 'checkbox'
            : property.type === 'integer'
              ? 'integer'
              : property.type === 'number'
                ? 'number'
                : 'text'
    return {
      name,
      kind,
      label: property.title ?? name,
      description: property.description ?? '',
      required: required.has(name),
      options: property.enum ?? [],
      ...(property.minimum === undefined ? {} : { min: property.minimum }),
      ...(property.maximum === undefined ? {} : { max: property.maximum }),
      ...(property.pattern === undefined ? {} : { pattern: property.pattern }),
      initial: property.default === undefined ? '' : String(property.default),
    }
  })
  return [...fields.filter((f) => f.kind === 'image'), ...fields.filter((f) => f.kind !== 'image')]
}

export type FormValues = Record<string, string>

export type BuildResult =
  | { ok: true; body: Record<string, string | number | boolean> }
  | { ok: false; field: string; message: string }

/**
 * The job's JSON body from the form's values: numbers as numbers, checkboxes as booleans, empty
 * optional fields left out (the server applies the defaults). Checks what the form can check.
 */
export function buildInput(fields: FormField[], values: FormValues): BuildResult {
  const body: Record<string, string | number | boolean> = {}
  for (const field of fields) {
    const raw = (values[field.name] ?? '').trim()
    if (field.kind === 'checkbox') {
      body[field.name] = raw === 'true'
      continue
    }
    if (raw === '') {
      if (field.required) {
        return { ok: false, field: field.name, message: `${field.label} is required` }
      }
      continue
    }
    if (field.kind === 'integer' || field.kind === 'number') {
      const value = Number(raw)
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) {
        return {
          ok: false,
          field: field.name,
          message: `${field.label} must be a ${field.kind === 'integer' ? 'whole number' : 'number'}`,
        }
      }
      if (field.min !== undefined && value < field.min) {
        return {
          ok: false,
          field: field.name,
          message: `${field.label} must be at least ${field.min}`,
        }
      }
      if (field.max !== undefined && value > field.max) {
        return {
          ok: false,
          field: field.name,
          message: `${field.label} must be at most ${field.max}`,
        }
      }
      body[field.name] = value
      continue
    }
    if (field.kind === 'select' && !field.options.includes(raw)) {
      return { ok: false, field: field.name, message: `${field.label} must be one of the choices` }
    }
    body[field.name] = raw
  }
  return { ok: true, body }
}

// ── the job ──────────────────────────────────────────────────────────────────────────────────

export const PANEL_TRANSFORMATION = PANEL_API_PATHS.transformation

export interface PredictionJob {
  jobId: string
  predictionId: string
  status: 'queued' | 'running' | 'done' | 'failed'
  attempts?: number
  credits?: number
  balance?: number
  result?: {
    url: string
    path?: string
    format?: string
    width?: number
    height?: number
    size?: number
  }
  error?: { code?: string; message?: string } | string
}

export function isFinished(job: Pick<PredictionJob, 'status'>): boolean {
  return job.status === 'done' || job.status === 'failed'
}

export function startPredictionJob(
  client: HttpClient,
  config: RuntimeConfig,
  orgId: string,
  predictionId: string,
  input: Record<string, unknown>,
): Promise<PredictionJob> {
  return client.request<PredictionJob>(
    joinUrl(
      config.apiUrl,
      `${PANEL_TRANSFORMATION}/${ORG_SEGMENT}/${encodeURIComponent(orgId)}/predictions/${encodeURIComponent(predictionId)}`,
    ),
    { method: 'POST', body: input },
  )
}

export function getPredictionJob(
  client: HttpClient,
  config: RuntimeConfig,
  orgId: string,
  jobId: string,
): Promise<PredictionJob> {
  return client.request<PredictionJob>(
    joinUrl(
      config.apiUrl,
      `${PANEL_TRANSFORMATION}/${ORG_SEGMENT}/${encodeURIComponent(orgId)}/predictions/jobs/${encodeURIComponent(jobId)}`,
    ),
  )
}

/** Polls a job until it is done or failed, reporting each state; gives up after `maxPolls`. */
export async function pollPredictionJob(
  read: () => Promise<PredictionJob>,
  onState: (job: PredictionJob) => void,
  options: { intervalMs?: number; maxPolls?: number; signal?: AbortSignal } = {},
): Promise<PredictionJob> {
  const interval = options.intervalMs ?? 1000
  const maxPolls = options.maxPolls ?? 120
  for (let poll = 0; poll < maxPolls; poll++) {
    if (options.signal?.aborted === true) throw new Error('Stopped')
    const job = await read()
    onState(job)
    if (isFinished(job)) return job
    await new Promise((resolve) => setTimeout(resolve, interval))
  }
  throw new Error('The job is still running; look again later')
}

/** A failed call's message for people: the server's `{ code, message }` when it sent one. */
export function errorMessage(error: unknown): { code: string; message: string } {
  const data = (error as { data?: unknown } | null)?.data
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const { code, message } = data as { code?: unknown; message?: unknown }
    return { code: typeof code === 'string' ? code : 'error', message: String(message) }
  }
  return {
    code: 'error',
    message: error instanceof Error ? error.message : 'Something went wrong',
  }
}

/** One prediction with its input schema; a 404 rejects with the server's empty body (SPEC §7.2). */
export function getPredictionSchema(
  client: HttpClient,
  config: RuntimeConfig,
  id: string,
): Promise<PredictionSchema> {
  return client.request<PredictionSchema>(
    joinUrl(
      config.apiUrl,
      `${PUBLIC_API_PATHS.transformation}/predictions/schema/${encodeURIComponent(id)}`,
    ),
  )
}
