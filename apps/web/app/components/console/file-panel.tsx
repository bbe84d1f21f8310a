// A file's panel in the library: preview, details, rename, its tags, metadata and access, its
// delivery URL with a transformation picker (presets, a chain of your own, the playground) and
// the ways to copy it.
import { formatBytes } from '@tessera/url'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { FileItem, Preset } from '../../lib/console-api.ts'
import {
  type CopyFormat,
  copyText,
  formatDuration,
  thumbnailUrl,
  videoThumbnailUrl,
  withPattern,
} from '../../lib/console-urls.ts'
import { useAction } from '../use-action.ts'
import { useConsole } from './console-context.tsx'
import { CopyButton, ErrorText, formatDate } from './console-ui.tsx'
import { parseMetadata, parseTags } from './library/library-state.ts'
import { useLoad } from './load-state.tsx'

const COPY_FORMATS: [CopyFormat, string][] = [
  ['url', 'Copy URL'],
  ['curl', 'Copy cURL'],
  ['html', 'Copy HTML'],
  ['js', 'Copy JavaScript'],
]

export function FilePanel({
  file,
  previews,
  onClose,
  onChanged,
  onMove,
  onDelete,
}: {
  file: FileItem
  /** False when delivery would refuse an unsigned preview (signed URLs required). */
  previews: boolean
  onClose: () => void
  /** The file as it is after a rename, or after its tags, metadata or access were saved. */
  onChanged: (file: FileItem, what: 'renamed' | 'saved') => void
  onMove: () => void
  onDelete: () => void
}) {
  const { api, org } = useConsole()
  // A viewer reads the library; changing it takes the member role (the server refuses it too).
  const readOnly = org.role === 'viewer'
  const presets = useLoad(
    () => api.listPresets({ archived: false, pageNo: 1, pageSize: 100 }),
    `presets:${org._id}`,
  )
  const [name, setName] = useState(file.name)
  // The typed name, or what was typed of the fields, stays with the API's reason beside it.
  const renaming = useAction()
  const [choice, setChoice] = useState('original')
  const [custom, setCustom] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  const [tags, setTags] = useState((file.tags ?? []).join(', '))
  const [metadata, setMetadata] = useState(JSON.stringify(file.metadata ?? {}, null, 2))
  const [access, setAccess] = useState(file.access ?? 'public-read')
  const saving = useAction()
  const busy = renaming.busy || saving.busy

  // A new file in the panel: its name in the field and the picker back to the original.
  // biome-ignore lint/correctness/useExhaustiveDependencies: another file (or its new version) resets the form
  useEffect(() => {
    setName(file.name)
    renaming.setError(null)
    setChoice('original')
    heading.current?.focus()
  }, [file.name, file._id])

  // The saved tags, metadata and access of the file shown, whenever they change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the file's own fields reset the form
  useEffect(() => {
    setTags((file.tags ?? []).join(', '))
    setMetadata(JSON.stringify(file.metadata ?? {}, null, 2))
    setAccess(file.access ?? 'public-read')
    saving.setError(null)
  }, [file._id, file.updatedAt])

  const pattern = choice === 'custom' ? custom : choice
  const url = withPattern(file.url, pattern)
  // Previews go through the session's preview path, so a private file shows too (decision 021).
  const isImage = previews && (file.assetType === undefined || file.assetType === 'image')
  // Browsers play MP4 and WebM; other containers show their first frame.
  const isVideo = previews && (file.format === 'mp4' || file.format === 'webm')
  const isStill = previews && file.assetType === 'video' && !isVideo
  const presetList: Preset[] = presets.state.status === 'ready' ? presets.state.data.items : []

  const rename = async (event: FormEvent) => {
    event.preventDefault()
    if (name.trim() === '' || name === file.name) return
    await renaming.run(async () =>
      onChanged(await api.updateFile(file._id, { name: name.trim() }), 'renamed'),
    )
  }

  const saveFields = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = parseMetadata(metadata)
    if (typeof parsed === 'string') {
      saving.setError(parsed)
      return
    }
    await saving.run(async () => {
      const changed = await api.updateFile(file._id, {
        tags: parseTags(tags),
        metadata: parsed,
        access,
      })
      onChanged(changed, 'saved')
    })
  }

  return (
    <aside className="file-panel" aria-labelledby="file-panel-title" data-testid="file-panel">
      <div className="file-panel-head">
        <h2 id="file-panel-title" ref={heading} tabIndex={-1}>
          {file.name}
        </h2>
        <button type="button" className="button is-ghost is-small" onClick={onClose}>
          Close
        </button>
      </div>
      {isVideo ? (
        // biome-ignore lint/a11y/useMediaCaption: the organisation's own file, which carries no captions track to offer
        <video
          className="file-preview"
          src={file.url}
          poster={videoThumbnailUrl(file.url, 640)}
          aria-label={`Video ${file.name}`}
          data-testid="file-video"
          controls
          preload="metadata"
          playsInline
        />
      ) : isImage ? (
        <img
          className="file-preview"
          src={thumbnailUrl(file.url, 640)}
          alt={`Preview of ${file.name}`}
          data-testid="file-preview"
        />
      ) : isStill ? (
        <img
          className="file-preview"
          src={videoThumbnailUrl(file.url, 640)}
          alt={`First frame of ${file.name}`}
          data-testid="file-preview"
        />
      ) : (
        <div className="file-preview is-raw">{file.format.toUpperCase()}</div>
      )}
      <dl className="file-details">
        <dt>Folder</dt>
        <dd>{file.path === '' ? 'All files' : file.path}</dd>
        <dt>Type</dt>
        <dd>
          {file.format} ({file.contentType})
        </dd>
        <dt>Size</dt>
        <dd data-testid="file-size">{formatBytes(file.size)}</dd>
        <dt>Dimensions</dt>
        <dd>
          {file.width === null || file.height === null ? '—' : `${file.width} × ${file.height} px`}
        </dd>
        {file.duration === undefined ? null : (
          <>
            <dt>Duration</dt>
            <dd data-testid="file-duration">
              {formatDuration(file.duration)}
              {file.video === undefined
                ? ''
                : ` · ${file.video.codec} · ${file.video.frameRate} fps · ${file.video.frames} frames`}
            </dd>
          </>
        )}
        {file.pages === undefined ? null : (
          <>
            <dt>Pages</dt>
            <dd>{file.pages}</dd>
          </>
        )}
        <dt>Version</dt>
        <dd>{file.version}</dd>
        <dt>Updated</dt>
        <dd>{formatDate(file.updatedAt)}</dd>
        <dt>Access</dt>
        <dd data-testid="file-access">
          {file.access === 'private' ? 'Private (signed URLs only)' : 'Public'}
        </dd>
        <dt>Tags</dt>
        <dd data-testid="file-tags">
          {(file.tags ?? []).length === 0 ? '—' : (file.tags ?? []).join(', ')}
        </dd>
      </dl>

      {readOnly ? null : (
        <>
          <form className="inline-form" onSubmit={rename}>
            <label htmlFor="rename-file">Name</label>
            <div className="inline-form-row">
              <input
                id="rename-file"
                value={name}
                onChange={(event) => setName(event.target.value)}
                maxLength={255}
                data-testid="rename-input"
              />
              <button type="submit" className="button is-small is-secondary" disabled={busy}>
                Rename
              </button>
            </div>
            <ErrorText message={renaming.error} testId="rename-error" />
          </form>

          <form className="inline-form" onSubmit={saveFields} data-testid="file-fields">
            <label htmlFor="file-tags-input">Tags (comma-separated)</label>
            <input
              id="file-tags-input"
              value={tags}
              placeholder="red, sale"
              onChange={(event) => setTags(event.target.value)}
              data-testid="tags-input"
            />
            <label htmlFor="file-access-input">Access</label>
            <select
              id="file-access-input"
              value={access}
              onChange={(event) => setAccess(event.target.value as 'public-read' | 'private')}
              data-testid="access-input"
            >
              <option value="public-read">Public: anyone with the URL</option>
              <option value="private">Private: signed URLs only</option>
            </select>
            <label htmlFor="file-metadata-input">Metadata (a JSON object)</label>
            <textarea
              id="file-metadata-input"
              value={metadata}
              rows={4}
              spellCheck={false}
              onChange={(event) => setMetadata(event.target.value)}
              data-testid="metadata-input"
            />
            <div className="inline-form-row">
              <button
                type="submit"
                className="button is-small is-secondary"
                disabled={busy}
                data-testid="save-fields"
              >
                Save tags, access and metadata
              </button>
            </div>
            <ErrorText message={saving.error} testId="fields-error" />
          </form>
        </>
      )}

      <fieldset className="transform-picker">
        <legend>Delivery URL</legend>
        <label htmlFor="transform-choice">Transformation</label>
        <select
          id="transform-choice"
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
          data-testid="transform-choice"
        >
          <option value="original">Original</option>
          {presetList.map((preset) => (
            <option key={preset.presetName} value={`p:${preset.presetName}`}>
              Preset p:{preset.presetName}
            </option>
          ))}
          <option value="t.resize(w:600)">Resize to 600 px wide</option>
          <option value="t.resize(w:300,h:300)~t.toFormat(f:webp)">300 px square, WebP</option>
          <option value="custom">A chain of your own…</option>
        </select>
        {choice === 'custom' ? (
          <>
            <label htmlFor="transform-custom">Chain</label>
            <input
              id="transform-custom"
              value={custom}
              placeholder="t.resize(w:400)~t.grey()"
              onChange={(event) => setCustom(event.target.value)}
            />
          </>
        ) : null}
        <code className="url-box" data-testid="delivery-url">
          {url}
        </code>
        <div className="button-row">
          {COPY_FORMATS.map(([format, label]) => (
            <CopyButton
              key={format}
              text={copyText(url, format, file.name)}
              label={label}
              testId={`copy-${format}`}
            />
          ))}
        </div>
        <div className="button-row">
          <a className="button is-small is-secondary" href={url} target="_blank" rel="noreferrer">
            Open
          </a>
          <a
            className="button is-small is-secondary"
            href={`/console/organization/${encodeURIComponent(org._id)}/playground?url=${encodeURIComponent(file.url)}`}
          >
            Open in the playground
          </a>
          <a className="button is-small is-secondary" href={file.url} download={file.name}>
            Download original
          </a>
        </div>
      </fieldset>
      {readOnly ? (
        <p className="form-hint" data-testid="read-only">
          You are a viewer here: owners and admins can give you the member role to change files.
        </p>
      ) : (
        <div className="button-row">
          <button type="button" className="button is-small is-secondary" onClick={onMove}>
            Move…
          </button>
          <button type="button" className="button is-small is-danger" onClick={onDelete}>
            Delete…
          </button>
        </div>
      )}
    </aside>
  )
}
