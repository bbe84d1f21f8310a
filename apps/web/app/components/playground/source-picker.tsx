// The image the playground works on: a demo sample or an upload for visitors, the
// organisation's files (folder by folder) or an upload for members.

import { useEffect, useId, useState } from 'react'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { APP_EVENTS, trackAppEvent } from '../../lib/app-events.ts'
import {
  DAILY_LIMIT_CODE,
  DEMO_CLOUD_NAME,
  describeFailure,
  listFiles,
  type MemberFile,
  SAMPLE_FILES,
  sampleThumbnailUrl,
  uploadAsMember,
  uploadAsVisitor,
} from '../../lib/playground-api.ts'
import type { Captcha } from '../captcha.tsx'
import { HiddenFileInput, UploadProgress } from '../file-pick.tsx'
import { readDeliveryUrl } from './chain-items.ts'
import type { ImageSource } from './playground-state.ts'

export interface PlaygroundOrg {
  id: string
  cloudName: string
  name?: string
  /** The organisation requires signed URLs: every image the playground fetches is signed. */
  requireSignedUrls?: boolean
}

export function sampleSource(deliveryBase: string, file: string): ImageSource {
  return {
    baseUrl: deliveryBase,
    cloudName: DEMO_CLOUD_NAME,
    filePath: `samples/${file}`,
    query: '',
    format: file.endsWith('.jpg') ? 'jpeg' : 'png',
  }
}

export function SourcePicker({
  org,
  source,
  deliveryBase,
  captcha,
  onSource,
}: {
  org: PlaygroundOrg | undefined
  source: ImageSource | null
  deliveryBase: string
  captcha: Captcha
  onSource: (source: ImageSource) => void
}) {
  const config = useConfig()
  const { client } = useSession()
  const [upload, setUpload] = useState<
    | { status: 'idle' }
    | { status: 'uploading'; progress: number }
    | { status: 'failed'; message: string }
    | { status: 'done'; message: string }
  >({ status: 'idle' })
  const inputId = useId()
  const [folder, setFolder] = useState('')
  const [entries, setEntries] = useState<MemberFile[] | null>(null)
  const [listError, setListError] = useState<string | null>(null)

  useEffect(() => {
    if (org === undefined) return
    let live = true
    setEntries(null)
    listFiles(client, config, org.id, folder).then(
      (answer) => live && setEntries(answer.items),
      (error: unknown) => live && setListError(describeFailure(error).message),
    )
    return () => {
      live = false
    }
  }, [org, folder, client, config])

  const onFile = async (file: File) => {
    trackAppEvent(APP_EVENTS.fileUpload, { where: 'playground', size: file.size })
    setUpload({ status: 'uploading', progress: 0 })
    const onProgress = (fraction: number) =>
      setUpload({ status: 'uploading', progress: Math.round(fraction * 100) })
    try {
      if (org === undefined) {
        const captchaToken = await captcha.token()
        const answer = await uploadAsVisitor(config, file, {
          onProgress,
          ...(captchaToken === undefined ? {} : { captchaToken }),
        })
        const read = readDeliveryUrl(answer.file.url, [])
        if (read !== null) onSource(read.source)
        setUpload({
          status: 'done',
          message: `Uploaded; kept until ${new Date(answer.expiresAt).toLocaleString()}. ${answer.remaining.uploads} uploads left today.`,
        })
      } else {
        const answer = await uploadAsMember(config, org.id, file, { onProgress })
        const read = readDeliveryUrl(answer.url, [])
        if (read !== null) onSource(read.source)
        setUpload({ status: 'done', message: `Uploaded to ${answer.fullPath}.` })
        setFolder(answer.path)
      }
      trackAppEvent(APP_EVENTS.uploadSuccess, { where: 'playground' })
    } catch (error) {
      const failure = describeFailure(error)
      trackAppEvent(APP_EVENTS.uploadFailed, { where: 'playground', code: failure.code })
      if (failure.code === DAILY_LIMIT_CODE) {
        trackAppEvent(APP_EVENTS.dailyLimitExceeded, { where: 'playground' })
      }
      if (failure.code.startsWith('captcha')) {
        trackAppEvent(APP_EVENTS.captchaFailed, { where: 'playground' })
      }
      setUpload({
        status: 'failed',
        message:
          org === undefined && failure.status === 404
            ? 'Uploading your own image is not available on this server. Try a sample, or sign up to use your own files.'
            : failure.message,
      })
    }
  }

  return (
    <section className="pg-panel" aria-labelledby="pg-source-heading">
      <h2 id="pg-source-heading">Image</h2>
      {org === undefined ? (
        <ul className="pg-samples" aria-label="Samples">
          {SAMPLE_FILES.map((file) => {
            const current =
              source?.cloudName === DEMO_CLOUD_NAME && source.filePath === `samples/${file}`
            return (
              <li key={file}>
                <button
                  type="button"
                  aria-pressed={current}
                  aria-label={`Sample ${file}`}
                  onClick={() => onSource(sampleSource(deliveryBase, file))}
                >
                  <img src={sampleThumbnailUrl(config, file, 48)} alt="" width={48} height={48} />
                </button>
              </li>
            )
          })}
        </ul>
      ) : (
        <div className="pg-files">
          <p className="pg-note">
            {org.name ?? org.cloudName} · {folder === '' ? 'top level' : folder}
            {folder === '' ? null : (
              <>
                {' '}
                <button
                  type="button"
                  className="button is-ghost is-small"
                  onClick={() => setFolder(folder.split('/').slice(0, -1).join('/'))}
                >
                  Up a folder
                </button>
              </>
            )}
          </p>
          {listError !== null ? (
            <p className="pg-alert" role="alert">
              {listError}
            </p>
          ) : entries === null ? (
            <p className="pg-wait">Loading files…</p>
          ) : entries.length === 0 ? (
            <p className="pg-empty">No files here yet: upload one.</p>
          ) : (
            <ul className="pg-file-list" aria-label="Files">
              {entries.map((entry) => (
                <li key={entry.fullPath}>
                  {entry.type === 'folder' ? (
                    <button
                      type="button"
                      className="bare-button"
                      onClick={() => setFolder(entry.fullPath)}
                    >
                      📁 {entry.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="bare-button"
                      aria-pressed={source?.filePath === entry.fullPath}
                      onClick={() => {
                        const read = readDeliveryUrl(entry.url, [])
                        if (read !== null) onSource(read.source)
                      }}
                    >
                      {entry.name}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <label className="pg-upload" htmlFor={inputId}>
        <span className="button is-secondary is-small">Upload an image, video or PDF</span>
        <HiddenFileInput
          id={inputId}
          accept="image/*,video/*,.heic,.heif,.pdf,application/pdf"
          onFile={(file) => void onFile(file)}
        />
      </label>
      {upload.status === 'uploading' ? (
        <UploadProgress percent={upload.progress} label="Upload progress" />
      ) : upload.status === 'failed' ? (
        <p className="pg-alert" role="alert" data-testid="upload-error">
          {upload.message}
        </p>
      ) : upload.status === 'done' ? (
        <p className="pg-note" role="status">
          {upload.message}
        </p>
      ) : null}
      {org === undefined ? captcha.widget : null}
    </section>
  )
}
