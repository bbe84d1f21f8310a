// The upload list shared by "Upload" and "From URL": overall progress and counts (SPEC §3
// upload state), a bar and a reason per entry, cancel one or all, retry, and for a name that is
// taken: overwrite or rename.
import { formatBytes } from '@tessera/url'
import { useState } from 'react'
import { type UploadEntry, type UploadState, uploadProblem } from '../../lib/upload-state.ts'
import { Field } from '../form-field.tsx'
import type { useUploadQueue } from './use-upload-queue.ts'

type UploadQueue = ReturnType<typeof useUploadQueue>

/** The folder both upload pages put the files into. */
export function FolderField({
  id,
  folder,
  onChange,
  placeholder,
  testId,
}: {
  id: string
  folder: string
  onChange: (folder: string) => void
  placeholder?: string
  testId?: string
}) {
  return (
    <Field
      id={id}
      label="Into folder (empty for All files)"
      value={folder}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder}
      data-testid={testId}
    />
  )
}

export function UploadSummary({
  state,
  onCancelAll,
  onRetryFailed,
  onClear,
}: {
  state: UploadState
  onCancelAll: () => void
  onRetryFailed: () => void
  onClear: () => void
}) {
  const { statusCount, uploadProgress } = state
  const active = state.entries.some((e) => e.status === 'queued' || e.status === 'uploading')
  if (statusCount.totalCount === 0) return null
  return (
    <section className="upload-summary" aria-label="Upload progress" data-testid="upload-summary">
      <div className="upload-overall">
        <progress
          max={100}
          value={uploadProgress}
          aria-label="Overall progress"
          data-testid="overall-progress"
        />
        <span data-testid="overall-percent">{uploadProgress}%</span>
      </div>
      <p className="upload-counts" aria-live="polite" data-testid="upload-counts">
        <span data-testid="count-total">{statusCount.totalCount} total</span>
        <span data-testid="count-success">{statusCount.successCount} uploaded</span>
        <span data-testid="count-failed">{statusCount.failedCount} failed</span>
        <span data-testid="count-cancelled">{statusCount.cancelledCount} cancelled</span>
      </p>
      <div className="button-row">
        {active ? (
          <button type="button" className="button is-small is-secondary" onClick={onCancelAll}>
            Cancel all
          </button>
        ) : null}
        {statusCount.failedCount > 0 ? (
          <button
            type="button"
            className="button is-small is-secondary"
            onClick={onRetryFailed}
            data-testid="retry-failed"
          >
            Retry failed
          </button>
        ) : null}
        {!active ? (
          <button type="button" className="button is-small is-ghost" onClick={onClear}>
            Clear the list
          </button>
        ) : null}
      </div>
    </section>
  )
}

export function UploadRow({
  entry,
  showBytes,
  onCancel,
  onRetry,
}: {
  entry: UploadEntry
  showBytes: boolean
  onCancel: () => void
  onRetry: (change: { name?: string; overwrite?: boolean }) => void
}) {
  const [rename, setRename] = useState<string | null>(null)
  const percent =
    entry.status === 'done'
      ? 100
      : entry.total > 0
        ? Math.min(100, Math.round((entry.loaded / entry.total) * 100))
        : 0
  const problem =
    entry.error === undefined ? null : uploadProblem(entry.error.code, entry.error.message)
  const statusText = {
    queued: 'Waiting',
    uploading: `${percent}%`,
    done: 'Uploaded',
    failed: 'Failed',
    cancelled: 'Cancelled',
  }[entry.status]
  return (
    <li
      className={`upload-row is-${entry.status}`}
      data-testid="upload-row"
      data-status={entry.status}
    >
      <div className="upload-row-head">
        <span className="upload-name" title={entry.label}>
          {entry.label}
        </span>
        <span className="upload-status" data-testid="upload-status">
          {statusText}
          {showBytes && entry.total > 0 ? ` · ${formatBytes(entry.total)}` : ''}
        </span>
      </div>
      <progress max={100} value={percent} aria-label={`Progress of ${entry.label}`} />
      {problem === null ? null : (
        <p className="upload-reason" role="alert" data-testid="upload-reason">
          {problem.reason}
        </p>
      )}
      {entry.result === undefined ? null : (
        <a className="upload-result" href={entry.result.url} target="_blank" rel="noreferrer">
          {entry.result.fullPath}
        </a>
      )}
      <div className="button-row">
        {entry.status === 'queued' || entry.status === 'uploading' ? (
          <button type="button" className="button is-small is-ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        {entry.status === 'failed' || entry.status === 'cancelled' ? (
          problem?.nameTaken ? (
            <>
              <button
                type="button"
                className="button is-small is-secondary"
                onClick={() => onRetry({ overwrite: true })}
              >
                Overwrite
              </button>
              {rename === null ? (
                <button
                  type="button"
                  className="button is-small is-secondary"
                  onClick={() => setRename(`${entry.name}-copy`)}
                >
                  Rename…
                </button>
              ) : (
                <form
                  className="inline-form-row"
                  onSubmit={(event) => {
                    event.preventDefault()
                    if (rename.trim() === '') return
                    onRetry({ name: rename.trim(), overwrite: false })
                    setRename(null)
                  }}
                >
                  <label className="visually-hidden" htmlFor={`rename-${entry.id}`}>
                    New name
                  </label>
                  <input
                    id={`rename-${entry.id}`}
                    value={rename}
                    onChange={(event) => setRename(event.target.value)}
                  />
                  <button type="submit" className="button is-small is-primary">
                    Upload as this name
                  </button>
                </form>
              )}
            </>
          ) : (
            <button
              type="button"
              className="button is-small is-secondary"
              onClick={() => onRetry({})}
            >
              Retry
            </button>
          )
        ) : null}
      </div>
    </li>
  )
}

/** The queue as the pages show it: the summary above one row per entry. */
export function UploadQueueList({
  queue,
  showBytes,
  testId,
}: {
  queue: Pick<UploadQueue, 'state' | 'cancel' | 'cancelAll' | 'retry' | 'retryFailed' | 'clear'>
  /** Whether each row says its size (files have one; URLs not until fetched). */
  showBytes: boolean
  testId?: string
}) {
  return (
    <>
      <UploadSummary
        state={queue.state}
        onCancelAll={queue.cancelAll}
        onRetryFailed={queue.retryFailed}
        onClear={queue.clear}
      />
      <ul className="upload-list" data-testid={testId}>
        {queue.state.entries.map((entry) => (
          <UploadRow
            key={entry.id}
            entry={entry}
            showBytes={showBytes}
            onCancel={() => queue.cancel(entry.id)}
            onRetry={(change) => queue.retry(entry.id, change)}
          />
        ))}
      </ul>
    </>
  )
}
