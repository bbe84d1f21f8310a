// From URL (/console/editor/url): the server fetches each URL into a folder, with the same
// list, counts, cancel and retry as uploads.
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { useConsole } from '../../components/console/console-context.tsx'
import { FolderField, UploadQueueList } from '../../components/console/upload-list.tsx'
import { type UploadWork, useUploadQueue } from '../../components/console/use-upload-queue.ts'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { normalisePath } from '../../lib/console-urls.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/upload-url.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Upload from URL', noIndex: true })

/** A file name from a URL's last segment, without its extension. */
function nameFromUrl(url: string): string {
  try {
    const last =
      new URL(url).pathname
        .split('/')
        .filter((part) => part !== '')
        .pop() ?? 'image'
    const decoded = decodeURIComponent(last)
    const dot = decoded.lastIndexOf('.')
    return (dot > 0 ? decoded.slice(0, dot) : decoded).replace(/[^A-Za-z0-9 ._()@+-]/g, '-')
  } catch {
    return 'image'
  }
}

export default function UploadFromUrl() {
  const { api } = useConsole()
  const [folder, setFolder] = useState('')
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  const work: UploadWork<string> = async (entry, url, signal) => {
    const path = normalisePath(folder)
    const file = await api.uploadFromUrl({
      url,
      ...(path === '' ? {} : { path }),
      name: entry.name,
      ...(entry.overwrite ? { overwrite: true } : {}),
    })
    if (signal.aborted) throw new DOMException('Cancelled', 'AbortError')
    return { fullPath: file.fullPath, url: file.url }
  }
  const queue = useUploadQueue(work)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const urls = text
      .split(/\s+/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
    const bad = urls.filter((url) => !/^https?:\/\/\S+$/i.test(url))
    if (urls.length === 0 || bad.length > 0) {
      setProblem(
        urls.length === 0 ? 'Give at least one URL.' : `Not an http(s) URL: ${bad.join(', ')}`,
      )
      return
    }
    setProblem(null)
    queue.add(urls.map((url) => ({ label: url, name: nameFromUrl(url), total: 0, source: url })))
    setText('')
  }

  return (
    <div className="console-panel is-wide" data-testid="upload-url-page">
      <p className="eyebrow">Media library</p>
      <h1>Upload from URL</h1>
      <form onSubmit={submit}>
        <FolderField id="url-folder" folder={folder} onChange={setFolder} />
        <div className="field">
          <label htmlFor="url-list">Image URLs, one a line</label>
          <textarea
            id="url-list"
            rows={6}
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="https://example.com/photo.jpg"
            data-testid="url-list"
          />
        </div>
        {problem === null ? null : (
          <p className="form-alert is-error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="button is-primary">
          Fetch into the library
        </button>
      </form>
      <UploadQueueList queue={queue} showBytes={false} />
      {queue.state.statusCount.successCount > 0 ? (
        <Link to="/console/editor" className="button is-secondary">
          Open the library
        </Link>
      ) : null}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
