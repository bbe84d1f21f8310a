// The console's upload state (SPEC §3: uploadProgress, statusCount with totalCount,
// successCount, failedCount and cancelledCount): one entry per file or URL, changed only through
// this reducer so the counts always agree with the entries.
import { formatBytes } from '@tessera/url'

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled'

export interface UploadEntry {
  id: string
  /** The file name, or the URL for uploads from a URL. */
  label: string
  /** The name the file is stored under (a rename after "name taken" changes it). */
  name: string
  status: UploadStatus
  loaded: number
  total: number
  /** Replace a file of the same name on the next try. */
  overwrite: boolean
  error?: { code: string; message: string }
  /** The stored file's full path and delivery URL, once done. */
  result?: { fullPath: string; url: string }
}

export interface StatusCount {
  totalCount: number
  successCount: number
  failedCount: number
  cancelledCount: number
}

export interface UploadState {
  entries: UploadEntry[]
  /** Overall progress in percent, 0 to 100, over the entries not cancelled. */
  uploadProgress: number
  statusCount: StatusCount
  /** Whether the list is long enough to offer a jump back to the top. */
  scrollTopVisible: boolean
}

export type UploadAction =
  | { type: 'add'; entries: { id: string; label: string; name: string; total: number }[] }
  | { type: 'start'; id: string }
  | { type: 'progress'; id: string; loaded: number; total?: number }
  | { type: 'succeeded'; id: string; fullPath: string; url: string }
  | { type: 'failed'; id: string; code: string; message: string }
  | { type: 'cancel'; id: string }
  | { type: 'cancel_all' }
  | { type: 'retry'; id: string; name?: string; overwrite?: boolean }
  | { type: 'retry_failed' }
  | { type: 'clear_finished' }

export const INITIAL_UPLOAD_STATE: UploadState = {
  entries: [],
  uploadProgress: 0,
  statusCount: { totalCount: 0, successCount: 0, failedCount: 0, cancelledCount: 0 },
  scrollTopVisible: false,
}

/** Entries beyond which the list offers "back to top". */
const SCROLL_TOP_AFTER = 8

function summarise(entries: UploadEntry[]): UploadState {
  const statusCount: StatusCount = {
    totalCount: entries.length,
    successCount: entries.filter((entry) => entry.status === 'done').length,
    failedCount: entries.filter((entry) => entry.status === 'failed').length,
    cancelledCount: entries.filter((entry) => entry.status === 'cancelled').length,
  }
  const counted = entries.filter((entry) => entry.status !== 'cancelled')
  let loaded = 0
  let total = 0
  for (const entry of counted) {
    // A finished entry (done or failed) counts as complete, whatever bytes were reported.
    const size = Math.max(entry.total, 1)
    total += size
    loaded +=
      entry.status === 'done' || entry.status === 'failed' ? size : Math.min(entry.loaded, size)
  }
  const uploadProgress = total === 0 ? 0 : Math.round((loaded / total) * 100)
  return {
    entries,
    uploadProgress,
    statusCount,
    scrollTopVisible: entries.length > SCROLL_TOP_AFTER,
  }
}

function update(
  state: UploadState,
  id: string,
  change: (entry: UploadEntry) => UploadEntry,
): UploadState {
  if (!state.entries.some((entry) => entry.id === id)) return state
  return summarise(state.entries.map((entry) => (entry.id === id ? change(entry) : entry)))
}

const isActive = (entry: UploadEntry) => entry.status === 'queued' || entry.status === 'uploading'

export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  switch (action.type) {
    case 'add':
      return summarise([
        ...state.entries,
        ...action.entries.map(
          (entry): UploadEntry => ({ ...entry, status: 'queued', loaded: 0, overwrite: false }),
        ),
      ])
    case 'start':
      return update(state, action.id, (entry) =>
        entry.status === 'queued' ? { ...entry, status: 'uploading', loaded: 0 } : entry,
      )
    case 'progress':
      return update(state, action.id, (entry) =>
        entry.status === 'uploading'
          ? {
              ...entry,
              // The request's total is the multipart body (the file plus its framing): the
              // entry keeps the file's own size, and progress is scaled to it.
              loaded:
                action.total === undefined || action.total <= 0 || entry.total <= 0
                  ? action.loaded
                  : Math.round(
                      (Math.min(action.loaded, action.total) / action.total) * entry.total,
                    ),
            }
          : entry,
      )
    case 'succeeded':
      return update(state, action.id, (entry) =>
        entry.status === 'uploading' || entry.status === 'queued'
          ? {
              ...entry,
              status: 'done',
              loaded: entry.total,
              result: { fullPath: action.fullPath, url: action.url },
            }
          : entry,
      )
    case 'failed':
      return update(state, action.id, (entry) =>
        isActive(entry)
          ? { ...entry, status: 'failed', error: { code: action.code, message: action.message } }
          : entry,
      )
    case 'cancel':
      return update(state, action.id, (entry) =>
        isActive(entry) ? { ...entry, status: 'cancelled' } : entry,
      )
    case 'cancel_all':
      return summarise(
        state.entries.map((entry) =>
          isActive(entry) ? { ...entry, status: 'cancelled' as const } : entry,
        ),
      )
    case 'retry':
      return update(state, action.id, (entry) => {
        if (entry.status !== 'failed' && entry.status !== 'cancelled') return entry
        const { error: _error, ...rest } = entry
        return {
          ...rest,
          status: 'queued',
          loaded: 0,
          name: action.name ?? entry.name,
          overwrite: action.overwrite ?? entry.overwrite,
        }
      })
    case 'retry_failed':
      return summarise(
        state.entries.map((entry) => {
          if (entry.status !== 'failed') return entry
          const { error: _error, ...rest } = entry
          return { ...rest, status: 'queued' as const, loaded: 0 }
        }),
      )
    case 'clear_finished':
      return summarise(state.entries.filter(isActive))
  }
}

/** A reason a person can act on, from the upload API's error code (docs/upload-api.md). */
export function uploadProblem(
  code: string,
  message: string,
): { reason: string; nameTaken: boolean } {
  switch (code) {
    case 'too_large': {
      // The server names its limit in bytes; shown in the units the file's size is shown in.
      const limit = /larger than (\d+) bytes/.exec(message)?.[1]
      return {
        reason:
          limit === undefined
            ? `Too large: ${message}`
            : `Too large: files up to ${formatBytes(Number(limit))} are accepted.`,
        nameTaken: false,
      }
    }
    case 'unsupported_type':
      return { reason: 'Not an image: this file type cannot be stored.', nameTaken: false }
    case 'invalid_image':
      return { reason: 'Not a readable image: it is corrupt or truncated.', nameTaken: false }
    case 'image_too_large':
      return {
        reason: 'Too many pixels: images up to 50 megapixels are accepted.',
        nameTaken: false,
      }
    case 'already_exists':
      return { reason: 'Name taken: a file with this name is already here.', nameTaken: true }
    default:
      return { reason: message, nameTaken: false }
  }
}

/** The name without its extension (the upload API adds the extension from the real format). */
export function baseName(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}
