import { describe, expect, it } from 'vitest'
import {
  buildInput,
  errorMessage,
  formFields,
  INITIAL_PREDICTIONS,
  type PredictionJob,
  pollPredictionJob,
  predictionsReducer,
} from './predictions.ts'

const schema = {
  properties: {
    requiredWidth: { type: 'integer', title: 'Width', minimum: 0, maximum: 10000, default: 0 },
    image: { type: 'string', format: 'uri', title: 'Image' },
    gravityTowards: { type: 'string', title: 'Gravity', enum: ['object', 'face'], default: 'face' },
    maintainOriginalAspect: { type: 'boolean', title: 'Keep aspect', default: false },
    aspectRatio: { type: 'string', title: 'Aspect ratio', default: '' },
  },
  required: ['image'],
}

describe('predictions list (SPEC §4)', () => {
  it('sets loading and clears the error on request, then the list or the error', () => {
    const failed = predictionsReducer(INITIAL_PREDICTIONS, {
      type: 'fetch_failure',
      error: 'Failed to load predictions',
    })
    expect(failed).toEqual({ list: [], loading: false, error: 'Failed to load predictions' })
    const loading = predictionsReducer(failed, { type: 'fetch_request' })
    expect(loading).toEqual({ list: [], loading: true, error: null })
    const done = predictionsReducer(loading, { type: 'fetch_success', items: [{ id: 'ic_crop' }] })
    expect(done).toEqual({ list: [{ id: 'ic_crop' }], loading: false, error: null })
  })
})

describe('prediction form', () => {
  const fields = formFields(schema)

  it('makes one control per property, the image first', () => {
    expect(fields.map((field) => [field.name, field.kind])).toEqual([
      ['image', 'image'],
      ['requiredWidth', 'integer'],
      ['gravityTowards', 'select'],
      ['maintainOriginalAspect', 'checkbox'],
      ['aspectRatio', 'text'],
    ])
    expect(fields[0]?.required).toBe(true)
    expect(fields[1]).toMatchObject({ min: 0, max: 10000, initial: '0' })
    expect(fields[2]?.options).toEqual(['object', 'face'])
  })

  it('builds typed JSON and leaves empty optional fields to their defaults', () => {
    expect(
      buildInput(fields, {
        image: ' photos/a.jpg ',
        requiredWidth: '400',
        gravityTowards: 'face',
        maintainOriginalAspect: 'true',
        aspectRatio: '',
      }),
    ).toEqual({
      ok: true,
      body: {
        image: 'photos/a.jpg',
        requiredWidth: 400,
        gravityTowards: 'face',
        maintainOriginalAspect: true,
      },
    })
  })

  it('refuses a missing image, a number out of range and a value not in the enum', () => {
    expect(buildInput(fields, { image: '' })).toMatchObject({ ok: false, field: 'image' })
    expect(buildInput(fields, { image: 'a.jpg', requiredWidth: '20000' })).toMatchObject({
      ok: false,
      message: 'Width must be at most 10000',
    })
    expect(buildInput(fields, { image: 'a.jpg', requiredWidth: '1.5' })).toMatchObject({
      ok: false,
      field: 'requiredWidth',
    })
    expect(buildInput(fields, { image: 'a.jpg', gravityTowards: 'sky' })).toMatchObject({
      ok: false,
      field: 'gravityTowards',
    })
  })
})

describe('prediction job', () => {
  it('polls until done, reporting each state', async () => {
    const states: PredictionJob['status'][] = ['queued', 'running', 'done']
    const seen: string[] = []
    const job = await pollPredictionJob(
      async () => ({ jobId: 'j', predictionId: 'ic_crop', status: states.shift() ?? 'done' }),
      (state) => seen.push(state.status),
      { intervalMs: 1 },
    )
    expect(job.status).toBe('done')
    expect(seen).toEqual(['queued', 'running', 'done'])
  })

  it('gives up after the last poll', async () => {
    await expect(
      pollPredictionJob(
        async () => ({ jobId: 'j', predictionId: 'x', status: 'queued' }),
        () => {},
        { intervalMs: 1, maxPolls: 3 },
      ),
    ).rejects.toThrow(/still running/)
  })

  it('shows the server’s code and message', () => {
    const error = Object.assign(new Error('POST x answered 501'), {
      data: { code: 'model_unavailable', message: 'No model for erase.bg on this server' },
    })
    expect(errorMessage(error)).toEqual({
      code: 'model_unavailable',
      message: 'No model for erase.bg on this server',
    })
    expect(errorMessage(new Error('offline')).message).toBe('offline')
  })
})
