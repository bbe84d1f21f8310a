import { describe, expect, it } from 'vitest'
import {
  baseName,
  INITIAL_UPLOAD_STATE,
  type UploadAction,
  type UploadState,
  uploadProblem,
  uploadReducer,
} from './upload-state.ts'

const run = (actions: UploadAction[], from: UploadState = INITIAL_UPLOAD_STATE) =>
  actions.reduce(uploadReducer, from)

const three: UploadAction = {
  type: 'add',
  entries: [
    { id: 'a', label: 'a.png', name: 'a', total: 100 },
    { id: 'b', label: 'b.png', name: 'b', total: 300 },
    { id: 'c', label: 'c.png', name: 'c', total: 600 },
  ],
}

describe('upload state (SPEC §3)', () => {
  it('counts what was added and starts at 0 %', () => {
    const state = run([three])
    expect(state.statusCount).toEqual({
      totalCount: 3,
      successCount: 0,
      failedCount: 0,
      cancelledCount: 0,
    })
    expect(state.uploadProgress).toBe(0)
    expect(state.entries.map((entry) => entry.status)).toEqual(['queued', 'queued', 'queued'])
  })

  it('weighs overall progress by size', () => {
    const state = run([
      three,
      { type: 'start', id: 'c' },
      { type: 'progress', id: 'c', loaded: 300, total: 600 },
    ])
    expect(state.uploadProgress).toBe(30)
  })

  it("keeps the file's own size when the request's total (multipart framing) differs", () => {
    const state = run([
      three,
      { type: 'start', id: 'c' },
      { type: 'progress', id: 'c', loaded: 400, total: 800 },
      { type: 'failed', id: 'c', code: 'file_too_large', message: 'Too big' },
    ])
    const entry = state.entries.find((item) => item.id === 'c')
    expect(entry?.total).toBe(600)
    expect(entry?.loaded).toBe(300)
    expect(uploadProblem('too_large', 'The file is larger than 26214400 bytes').reason).toBe(
      'Too large: files up to 25 MB are accepted.',
    )
  })

  it('counts successes, failures and cancellations, and a finished entry as complete', () => {
    const state = run([
      three,
      { type: 'start', id: 'a' },
      { type: 'succeeded', id: 'a', fullPath: 'a.png', url: 'http://x/v2/c/original/a.png' },
      { type: 'start', id: 'b' },
      { type: 'failed', id: 'b', code: 'unsupported_type', message: 'Not an image' },
      { type: 'cancel', id: 'c' },
    ])
    expect(state.statusCount).toEqual({
      totalCount: 3,
      successCount: 1,
      failedCount: 1,
      cancelledCount: 1,
    })
    // Cancelled entries leave the overall progress: a and b are finished.
    expect(state.uploadProgress).toBe(100)
    expect(state.entries[0]?.result?.fullPath).toBe('a.png')
    expect(state.entries[1]?.error).toEqual({ code: 'unsupported_type', message: 'Not an image' })
  })

  it('ignores progress and results for entries that are no longer running', () => {
    const state = run([
      three,
      { type: 'start', id: 'a' },
      { type: 'cancel', id: 'a' },
      { type: 'progress', id: 'a', loaded: 50 },
      { type: 'succeeded', id: 'a', fullPath: 'a.png', url: 'u' },
      { type: 'failed', id: 'a', code: 'x', message: 'y' },
    ])
    expect(state.entries[0]?.status).toBe('cancelled')
    expect(state.entries[0]?.loaded).toBe(0)
  })

  it('cancels every running and waiting entry at once, not finished ones', () => {
    const state = run([
      three,
      { type: 'start', id: 'a' },
      { type: 'succeeded', id: 'a', fullPath: 'a.png', url: 'u' },
      { type: 'start', id: 'b' },
      { type: 'cancel_all' },
    ])
    expect(state.entries.map((entry) => entry.status)).toEqual(['done', 'cancelled', 'cancelled'])
    expect(state.statusCount.cancelledCount).toBe(2)
  })

  it('retries a failed entry with a new name or overwrite, and every failed entry at once', () => {
    const failed = run([
      three,
      { type: 'start', id: 'a' },
      { type: 'failed', id: 'a', code: 'already_exists', message: 'taken' },
      { type: 'start', id: 'b' },
      { type: 'failed', id: 'b', code: 'network', message: 'offline' },
    ])
    const renamed = uploadReducer(failed, { type: 'retry', id: 'a', name: 'a-copy' })
    expect(renamed.entries[0]).toMatchObject({ status: 'queued', name: 'a-copy', overwrite: false })
    expect(renamed.entries[0]?.error).toBeUndefined()
    expect(renamed.statusCount.failedCount).toBe(1)
    const overwrite = uploadReducer(failed, { type: 'retry', id: 'a', overwrite: true })
    expect(overwrite.entries[0]).toMatchObject({ name: 'a', overwrite: true })
    const all = uploadReducer(failed, { type: 'retry_failed' })
    expect(all.statusCount.failedCount).toBe(0)
    expect(all.entries.map((entry) => entry.status)).toEqual(['queued', 'queued', 'queued'])
  })

  it('clears finished entries and keeps the running ones', () => {
    const state = run([
      three,
      { type: 'start', id: 'a' },
      { type: 'succeeded', id: 'a', fullPath: 'a.png', url: 'u' },
      { type: 'cancel', id: 'b' },
      { type: 'clear_finished' },
    ])
    expect(state.entries.map((entry) => entry.id)).toEqual(['c'])
    expect(state.statusCount.totalCount).toBe(1)
  })

  it('offers "back to top" once the list is long', () => {
    const many: UploadAction = {
      type: 'add',
      entries: Array.from({ length: 9 }, (_, i) => ({
        id: String(i),
        label: `${i}.png`,
        name: String(i),
        total: 1,
      })),
    }
    expect(run([three]).scrollTopVisible).toBe(false)
    expect(run([many]).scrollTopVisible).toBe(true)
  })
})

describe('upload reasons', () => {
  it('says why in words a person can act on', () => {
    expect(uploadProblem('unsupported_type', 'x').reason).toMatch(/^Not an image/)
    expect(uploadProblem('too_large', 'The file is larger than 50 MB').reason).toBe(
      'Too large: The file is larger than 50 MB',
    )
    expect(uploadProblem('already_exists', 'x')).toEqual({
      reason: 'Name taken: a file with this name is already here.',
      nameTaken: true,
    })
    expect(uploadProblem('invalid_path', 'Bad path').reason).toBe('Bad path')
  })

  it('takes the extension off a name (the server sets it from the real format)', () => {
    expect(baseName('photo.final.jpg')).toBe('photo.final')
    expect(baseName('.hidden')).toBe('.hidden')
    expect(baseName('README')).toBe('README')
  })
})
