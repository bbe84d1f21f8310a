// Upload (/console/editor/upload): drag and drop or choose files (and folders where the browser
// allows) into a folder, each with its own progress bar (XMLHttpRequest upload progress).
import { type DragEvent, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useConsole } from '../../components/console/console-context.tsx'
import { FolderField, UploadQueueList } from '../../components/console/upload-list.tsx'
import { type UploadWork, useUploadQueue } from '../../components/console/use-upload-queue.ts'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { ASSETS, type FileItem, nonce } from '../../lib/console-api.ts'
import { normalisePath } from '../../lib/console-urls.ts'
import { loginUrl } from '../../lib/links.ts'
import { joinUrl } from '../../lib/runtime-config.ts'
import { metaFor } from '../../lib/seo.ts'
import { SIGNED_UPLOAD_THRESHOLD, signedUpload } from '../../lib/signed-upload.ts'
import { baseName } from '../../lib/upload-state.ts'
import { xhrUpload } from '../../lib/xhr-upload.ts'
import type { Route } from './+types/upload.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Upload', noIndex: true })

interface Source {
  file: File
  /** The folder under the target folder (from a dropped or chosen folder). */
  folder: string
}

/** Files of a dropped folder, read through the entries API where the browser has it. */
async function readEntry(entry: FileSystemEntry, folder: string, out: Source[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    )
    out.push({ file, folder })
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  const inner = folder === '' ? entry.name : `${folder}/${entry.name}`
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    )
    if (batch.length === 0) break
    for (const child of batch) await readEntry(child, inner, out)
  }
}

export default function Upload() {
  const config = useConfig()
  const { org } = useConsole()
  const [params] = useSearchParams()
  const [folder, setFolder] = useState(normalisePath(params.get('path') ?? ''))
  const [dragging, setDragging] = useState(false)
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)

  const session = useSession()

  const work: UploadWork<Source> = async (entry, source, signal, onProgress) => {
    // Large files go in parts through a signed upload URL (resumable part by part, retried).
    if (source.file.size > SIGNED_UPLOAD_THRESHOLD) {
      const stored = await signedUpload({
        client: session.client,
        apiUrl: config.apiUrl,
        orgId: org._id,
        file: source.file,
        path: normalisePath([folder, source.folder].join('/')),
        name: entry.name,
        overwrite: entry.overwrite === true,
        signal,
        onProgress,
      })
      return { fullPath: stored.fullPath, url: stored.url }
    }
    const form = new FormData()
    form.set('file', source.file)
    const path = normalisePath([folder, source.folder].join('/'))
    if (path !== '') form.set('path', path)
    form.set('name', entry.name)
    if (entry.overwrite) form.set('overwrite', 'true')
    const query = new URLSearchParams({ orgId: org._id, nonce: nonce() })
    const file = await xhrUpload<FileItem>({
      url: joinUrl(config.apiUrl, `${ASSETS}/upload/direct?${query}`),
      form,
      signingKey: config.panelSigningKey,
      signal,
      onProgress,
      onUnauthorized: () => {
        const { pathname, search, href } = window.location
        window.location.assign(loginUrl(config.consoleUrl, { pathname, search, href }))
      },
    })
    return { fullPath: file.fullPath, url: file.url }
  }
  const queue = useUploadQueue(work)

  const addFiles = (sources: Source[]) =>
    queue.add(
      sources.map((source) => ({
        label: source.folder === '' ? source.file.name : `${source.folder}/${source.file.name}`,
        name: baseName(source.file.name),
        total: source.file.size,
        source,
      })),
    )

  const onDrop = async (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    const items = [...event.dataTransfer.items]
    const entries = items
      .map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null))
      .filter((entry): entry is FileSystemEntry => entry !== null)
    if (entries.length > 0) {
      const out: Source[] = []
      for (const entry of entries) await readEntry(entry, '', out)
      addFiles(out)
    } else {
      addFiles([...event.dataTransfer.files].map((file) => ({ file, folder: '' })))
    }
  }

  const fromInput = (input: HTMLInputElement | null) => {
    if (input?.files === null || input === null) return
    addFiles(
      [...input.files].map((file) => {
        // A chosen folder gives each file its path inside it.
        const relative = file.webkitRelativePath ?? ''
        const folderPath = relative.includes('/')
          ? relative.slice(0, relative.lastIndexOf('/'))
          : ''
        return { file, folder: folderPath }
      }),
    )
    input.value = ''
  }

  // A viewer reads the library; uploading takes the member role (the server refuses it too).
  if (org.role === 'viewer') {
    return (
      <div className="console-panel is-wide" data-testid="upload-page">
        <p className="eyebrow">Media library</p>
        <h1>Upload</h1>
        <p className="form-alert" data-testid="read-only">
          You are a viewer here: uploading takes the member role, which owners and admins can give
          you under Settings → Members.
        </p>
      </div>
    )
  }

  return (
    <div className="console-panel is-wide" data-testid="upload-page">
      <p className="eyebrow">Media library</p>
      <h1>Upload</h1>
      <FolderField
        id="upload-folder"
        folder={folder}
        onChange={setFolder}
        placeholder="products/shoes"
        testId="upload-folder"
      />
      <section
        className={`dropzone${dragging ? ' is-dragging' : ''}`}
        aria-label="Drop files here"
        data-testid="dropzone"
        onDragOver={(event) => {
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => void onDrop(event)}
      >
        <p>
          <strong>Drop images, videos or folders here</strong>
        </p>
        <p>or</p>
        <div className="button-row is-centered">
          <button
            type="button"
            className="button is-primary"
            onClick={() => filesInput.current?.click()}
          >
            Choose files
          </button>
          <button
            type="button"
            className="button is-secondary"
            onClick={() => folderInput.current?.click()}
          >
            Choose a folder
          </button>
        </div>
        <input
          ref={filesInput}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          onChange={(event) => fromInput(event.currentTarget)}
        />
        <input
          ref={folderInput}
          type="file"
          multiple
          hidden
          // The non-standard attribute every current browser supports for choosing a folder.
          {...{ webkitdirectory: '' }}
          onChange={(event) => fromInput(event.currentTarget)}
        />
        <p className="dropzone-hint">
          JPEG, PNG, WebP, AVIF, GIF, HEIC, TIFF, BMP, SVG, PDF and plain text, and videos (MP4,
          MOV, MKV, WebM, AVI, MPEG), up to 50 MB each.
        </p>
      </section>
      <UploadQueueList queue={queue} showBytes testId="upload-list" />
      {queue.state.statusCount.successCount > 0 ? (
        <Link
          to={`/console/editor${normalisePath(folder) === '' ? '' : `?path=${encodeURIComponent(normalisePath(folder))}`}`}
          className="button is-secondary"
        >
          Open the folder
        </Link>
      ) : null}
      {queue.state.scrollTopVisible ? (
        <button
          type="button"
          className="button is-ghost is-small"
          onClick={() => window.scrollTo({ top: 0 })}
        >
          Back to top
        </button>
      ) : null}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
