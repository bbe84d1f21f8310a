// The media library (/console/editor): folders as a tree and breadcrumbs, files as a grid or a
// list, sort, search, paging as the API pages, selection, rename, move, delete and new folder.
import { formatBytes } from '@tessera/url'
import { type FormEvent, useEffect, useMemo, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import {
  Dialog,
  ErrorText,
  formatDate,
  ListState,
  useConsole,
  useLoad,
} from '../../components/console/console-context.tsx'
import { FilePanel } from '../../components/console/file-panel.tsx'
import { DRAG_TYPE, FolderTree } from '../../components/console/folder-tree.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import type { ConsoleApi, FileItem, LibraryItem } from '../../lib/console-api.ts'
import { problemOf } from '../../lib/console-api.ts'
import { crumbs, normalisePath, thumbnailUrl } from '../../lib/console-urls.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/editor.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Media library', noIndex: true })

const PAGE_SIZE = 50

type Sort = 'name' | '-name' | '-updated' | '-size' | 'type'

const SORTS: [Sort, string][] = [
  ['name', 'Name, A to Z'],
  ['-name', 'Name, Z to A'],
  ['-updated', 'Recently updated'],
  ['-size', 'Largest first'],
  ['type', 'Type'],
]

/** A stable key per item: files by id, folders by path. */
export const keyOf = (item: LibraryItem) =>
  item.type === 'file' ? `file:${item._id}` : `folder:${item.fullPath}`

/** Files and folders under a folder, counted by walking it (bounded, for the delete question). */
async function countFolder(
  api: ConsoleApi,
  path: string,
): Promise<{ files: number; folders: number; partial: boolean }> {
  let files = 0
  let folders = 0
  const queue = [path]
  let calls = 0
  while (queue.length > 0) {
    const next = queue.shift() as string
    for (let pageNo = 1; ; pageNo++) {
      if (++calls > 40) return { files, folders, partial: true }
      const answer = await api.listFiles({ path: next, pageNo, pageSize: 100 })
      for (const item of answer.items) {
        if (item.type === 'folder') {
          folders += 1
          queue.push(item.fullPath)
        } else files += 1
      }
      if (!answer.page.hasNext) break
    }
  }
  return { files, folders, partial: false }
}

type Pending =
  | { kind: 'new-folder' }
  | { kind: 'rename'; item: LibraryItem }
  | { kind: 'move'; items: LibraryItem[] }
  | { kind: 'delete'; items: LibraryItem[] }

export default function Editor() {
  const { api, org } = useConsole()
  const [params, setParams] = useSearchParams()
  const path = normalisePath(params.get('path') ?? '')
  const q = params.get('q') ?? ''
  const pageNo = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)
  const view = params.get('view') === 'list' ? 'list' : 'grid'
  const sort = (SORTS.find(([value]) => value === params.get('sort'))?.[0] ?? 'name') as Sort
  const [search, setSearch] = useState(q)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [open, setOpen] = useState<FileItem | null>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const [treeVersion, setTreeVersion] = useState(0)
  const [notice, setNotice] = useState<string | null>(null)
  const [dropTarget, setDropTarget] = useState<string | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)

  // With signed URLs required, delivery refuses the console's unsigned thumbnails: none are
  // asked for, and the page says why.
  const settings = useLoad(() => api.settings(), `settings:${org._id}`)
  const signedOnly = settings.state.status === 'ready' && settings.state.data.requireSignedUrls
  const list = useLoad(
    // The API sorts the whole folder, so every page follows the order chosen.
    () =>
      api.listFiles({
        path,
        name: q,
        ...(sort === 'name' ? {} : { sort }),
        pageNo,
        pageSize: PAGE_SIZE,
      }),
    `${org._id}|${path}|${q}|${sort}|${pageNo}`,
  )

  const change = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams(params)
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined || value === '') merged.delete(key)
      else merged.set(key, value)
    }
    setParams(merged, { preventScrollReset: true })
  }
  const openFolder = (folder: string) => {
    setSelected(new Set())
    setOpen(null)
    setSearch('')
    change({ path: folder, q: undefined, page: undefined, file: undefined })
  }

  // A link to one file (`?file={id}`, from the home page's recent uploads) opens its panel.
  const fileParam = params.get('file')
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the linked file triggers it
  useEffect(() => {
    if (fileParam === null) return
    let current = true
    api
      .getFile(fileParam)
      .then((file) => {
        if (current) setOpen(file)
      })
      .catch((reason: unknown) => {
        if (current) setActionError(problemOf(reason))
      })
    return () => {
      current = false
    }
  }, [fileParam])

  // Search as you type, a moment after the last key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text triggers it
  useEffect(() => {
    if (search === q) return
    const timer = setTimeout(() => change({ q: search.trim(), page: undefined }), 300)
    return () => clearTimeout(timer)
  }, [search])

  const items = useMemo(
    () => (list.state.status === 'ready' ? list.state.data.items : []),
    [list.state],
  )
  const chosen = items.filter((item) => selected.has(keyOf(item)))
  const toggle = (item: LibraryItem) =>
    setSelected((set) => {
      const next = new Set(set)
      const key = keyOf(item)
      if (next.has(key)) next.delete(key)
      else next.add(key)
      return next
    })

  // The notice shows once the list shows the change, so what it says is what is on screen.
  const afterChange = async (message: string, foldersChanged: boolean) => {
    setNotice(null)
    setSelected(new Set())
    if (foldersChanged) setTreeVersion((value) => value + 1)
    await list.reload()
    setNotice(message)
  }

  /** Moves items (dragged, or from the dialog) into a folder; stops at the first failure. */
  const moveItems = async (targets: LibraryItem[], destination: string) => {
    const folder = normalisePath(destination)
    let moved = 0
    for (const item of targets) {
      if (item.type === 'file') {
        if (item.path === folder) continue
        const file = await api.updateFile(item._id, { path: folder })
        if (open?._id === file._id) setOpen(file)
      } else {
        if (item.path === folder || item.fullPath === folder) continue
        await api.updateFolder(item.fullPath, { path: folder })
      }
      moved += 1
    }
    await afterChange(
      `Moved ${moved} item${moved === 1 ? '' : 's'} to ${folder === '' ? 'All files' : folder}.`,
      true,
    )
  }

  const onDropItems = async (keys: string[], destination: string) => {
    const targets = items.filter((item) => keys.includes(keyOf(item)))
    if (targets.length === 0) return
    setActionError(null)
    try {
      await moveItems(targets, destination)
    } catch (error) {
      setActionError(problemOf(error))
      await list.reload()
    }
  }

  const dragProps = (item: LibraryItem) => ({
    draggable: true,
    onDragStart: (event: React.DragEvent) => {
      const key = keyOf(item)
      const keys = selected.has(key) ? [...selected] : [key]
      event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(keys))
      event.dataTransfer.effectAllowed = 'move'
    },
  })
  const dropProps = (item: LibraryItem) =>
    item.type !== 'folder'
      ? {}
      : {
          onDragOver: (event: React.DragEvent) => {
            if (!event.dataTransfer.types.includes(DRAG_TYPE)) return
            event.preventDefault()
            setDropTarget(item.fullPath)
          },
          onDragLeave: () => setDropTarget(null),
          onDrop: (event: React.DragEvent) => {
            setDropTarget(null)
            const raw = event.dataTransfer.getData(DRAG_TYPE)
            if (raw === '') return
            event.preventDefault()
            const keys = (JSON.parse(raw) as string[]).filter(
              (key) => key !== `folder:${item.fullPath}`,
            )
            void onDropItems(keys, item.fullPath)
          },
        }

  const page = list.state.status === 'ready' ? list.state.data.page : null
  const pageCount = page === null ? 1 : Math.max(1, Math.ceil(page.itemTotal / PAGE_SIZE))
  const uploadHref = `/console/editor/upload${path === '' ? '' : `?path=${encodeURIComponent(path)}`}`

  return (
    <div className="editor" data-testid="editor">
      <div className="page-head">
        <div>
          <p className="eyebrow">Media library</p>
          <h1>{path === '' ? 'All files' : path.split('/').pop()}</h1>
        </div>
        <div className="button-row">
          <button
            type="button"
            className="button is-secondary is-small"
            onClick={() => setPending({ kind: 'new-folder' })}
          >
            New folder
          </button>
          <Link to={uploadHref} className="button is-primary is-small">
            Upload
          </Link>
        </div>
      </div>
      <nav aria-label="Folder path" className="breadcrumbs" data-testid="breadcrumbs">
        <ol>
          {crumbs(path).map((crumb, index, all) => (
            <li key={crumb.path || '/'}>
              {index === all.length - 1 ? (
                <span aria-current="page">{crumb.name}</span>
              ) : (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => openFolder(crumb.path)}
                  onDragOver={(event) => {
                    if (event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault()
                  }}
                  onDrop={(event) => {
                    const raw = event.dataTransfer.getData(DRAG_TYPE)
                    if (raw === '') return
                    event.preventDefault()
                    void onDropItems(JSON.parse(raw) as string[], crumb.path)
                  }}
                >
                  {crumb.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className={`editor-body${open === null ? '' : ' has-panel'}`}>
        <div className="editor-tree">
          <FolderTree
            api={api}
            current={path}
            version={treeVersion}
            onOpen={openFolder}
            onDropItems={(keys, target) => void onDropItems(keys, target)}
          />
        </div>
        <section className="editor-main" aria-label="Files">
          <div className="editor-toolbar">
            <label className="search-field">
              <span className="visually-hidden">Search by name in this folder</span>
              <input
                type="search"
                placeholder="Search by name in this folder"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                data-testid="library-search"
              />
            </label>
            <label>
              <span className="visually-hidden">Sort</span>
              <select
                value={sort}
                onChange={(event) => change({ sort: event.target.value, page: undefined })}
                data-testid="library-sort"
              >
                {SORTS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="view-toggle" aria-label="View">
              <button
                type="button"
                aria-pressed={view === 'grid'}
                onClick={() => change({ view: undefined })}
              >
                Grid
              </button>
              <button
                type="button"
                aria-pressed={view === 'list'}
                onClick={() => change({ view: 'list' })}
                data-testid="view-list"
              >
                List
              </button>
            </fieldset>
          </div>
          {chosen.length > 0 ? (
            <section className="selection-bar" aria-label="Selection">
              <span data-testid="selection-count">{chosen.length} selected</span>
              {chosen.length === 1 ? (
                <button
                  type="button"
                  className="button is-small is-secondary"
                  onClick={() => setPending({ kind: 'rename', item: chosen[0] as LibraryItem })}
                >
                  Rename
                </button>
              ) : null}
              <button
                type="button"
                className="button is-small is-secondary"
                onClick={() => setPending({ kind: 'move', items: chosen })}
              >
                Move…
              </button>
              <button
                type="button"
                className="button is-small is-danger"
                onClick={() => setPending({ kind: 'delete', items: chosen })}
              >
                Delete…
              </button>
              <button
                type="button"
                className="button is-small is-ghost"
                onClick={() => setSelected(new Set())}
              >
                Clear
              </button>
            </section>
          ) : null}
          {notice === null ? null : (
            <p className="form-alert is-success" role="status" data-testid="library-notice">
              {notice}
            </p>
          )}
          <ErrorText message={actionError} />
          {signedOnly ? (
            <p className="form-alert" data-testid="signed-only">
              This organisation requires signed URLs, so previews are off and delivery URLs need a
              signature (
              <Link to={`/console/organization/${org._id}/settings/security`}>Security</Link>).
            </p>
          ) : null}
          <ListState
            state={list.state}
            label="this folder"
            onRetry={() => void list.reload()}
            empty={(answer) =>
              answer.items.length > 0 ? null : q !== '' ? (
                <p>Nothing in this folder has “{q}” in its name.</p>
              ) : path === '' ? (
                <>
                  <h2>Your library is empty</h2>
                  <p>Upload images to store, transform and deliver them.</p>
                  <Link to={uploadHref} className="button is-primary">
                    Upload files
                  </Link>
                </>
              ) : (
                <>
                  <p>This folder is empty.</p>
                  <Link to={uploadHref} className="button is-primary is-small">
                    Upload here
                  </Link>
                </>
              )
            }
          >
            {() => (
              <ul
                className={`library is-${view}`}
                data-testid="library"
                aria-label={`Files and folders in ${path === '' ? 'All files' : path}`}
              >
                {items.map((item) => {
                  const key = keyOf(item)
                  const isSelected = selected.has(key)
                  return (
                    <li
                      key={key}
                      className={[
                        'library-item',
                        isSelected ? 'is-selected' : '',
                        dropTarget === item.fullPath && item.type === 'folder'
                          ? 'is-drop-target'
                          : '',
                      ].join(' ')}
                      data-testid="library-item"
                      data-name={item.name}
                      data-type={item.type}
                      {...dragProps(item)}
                      {...dropProps(item)}
                    >
                      <input
                        type="checkbox"
                        className="item-check"
                        checked={isSelected}
                        onChange={() => toggle(item)}
                        aria-label={`Select ${item.name}`}
                      />
                      <button
                        type="button"
                        className="item-open"
                        onClick={() =>
                          item.type === 'folder' ? openFolder(item.fullPath) : setOpen(item)
                        }
                        aria-label={
                          item.type === 'folder' ? `Open folder ${item.name}` : `Show ${item.name}`
                        }
                      >
                        <span className="item-thumb" aria-hidden="true">
                          {item.type === 'folder' ? (
                            <svg
                              className="folder-icon"
                              viewBox="0 0 24 24"
                              width="40"
                              height="40"
                              aria-hidden="true"
                            >
                              <path
                                d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z"
                                fill="currentColor"
                              />
                            </svg>
                          ) : !signedOnly &&
                            (item.assetType === undefined || item.assetType === 'image') ? (
                            <img src={thumbnailUrl(item.url)} alt="" loading="lazy" />
                          ) : (
                            <span className="raw-icon">{item.format.toUpperCase()}</span>
                          )}
                        </span>
                        <span className="item-name">{item.name}</span>
                        {item.type === 'file' ? (
                          <span className="item-meta">
                            <span>{formatBytes(item.size)}</span>
                            <span>{item.format}</span>
                            <span>
                              {item.width === null || item.height === null
                                ? '—'
                                : `${item.width}×${item.height}`}
                            </span>
                            <span>{formatDate(item.updatedAt)}</span>
                          </span>
                        ) : (
                          <span className="item-meta">
                            <span>Folder</span>
                          </span>
                        )}
                      </button>
                    </li>
                  )
                })}
              </ul>
            )}
          </ListState>
          {page !== null && pageCount > 1 ? (
            <nav className="pager" aria-label="Pages">
              <button
                type="button"
                className="button is-small is-secondary"
                disabled={pageNo <= 1}
                onClick={() => change({ page: String(pageNo - 1) })}
              >
                Previous
              </button>
              <span>
                Page {pageNo} of {pageCount} ({page.itemTotal} items)
              </span>
              <button
                type="button"
                className="button is-small is-secondary"
                disabled={!page.hasNext}
                onClick={() => change({ page: String(pageNo + 1) })}
              >
                Next
              </button>
            </nav>
          ) : null}
        </section>
        {open === null ? null : (
          <FilePanel
            file={open}
            previews={!signedOnly}
            onClose={() => {
              setOpen(null)
              if (params.has('file')) change({ file: undefined })
            }}
            onChanged={(file) => {
              setOpen(file)
              void afterChange(`Renamed to ${file.name}.`, false)
            }}
            onMove={() => setPending({ kind: 'move', items: [open] })}
            onDelete={() => setPending({ kind: 'delete', items: [open] })}
          />
        )}
      </div>
      <ActionDialog
        pending={pending}
        path={path}
        onClose={() => setPending(null)}
        onDone={async (message, foldersChanged, removed) => {
          setPending(null)
          if (open !== null && removed.includes(`file:${open._id}`)) setOpen(null)
          await afterChange(message, foldersChanged)
        }}
        moveItems={moveItems}
      />
    </div>
  )
}

function ActionDialog({
  pending,
  path,
  onClose,
  onDone,
  moveItems,
}: {
  pending: Pending | null
  path: string
  onClose: () => void
  onDone: (message: string, foldersChanged: boolean, removed: string[]) => Promise<void>
  moveItems: (items: LibraryItem[], destination: string) => Promise<void>
}) {
  const { api } = useConsole()
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [count, setCount] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another action opens
  useEffect(() => {
    setError(null)
    setBusy(false)
    setCount(null)
    if (pending?.kind === 'rename') setValue(pending.item.name)
    else if (pending?.kind === 'move') setValue(path)
    else setValue('')
    if (pending?.kind === 'delete') {
      const folders = pending.items.filter((item) => item.type === 'folder')
      const files = pending.items.length - folders.length
      if (folders.length === 0) {
        setCount(`${files} file${files === 1 ? '' : 's'} will be deleted.`)
      } else {
        setCount('Counting what is inside…')
        void Promise.all(folders.map((folder) => countFolder(api, folder.fullPath)))
          .then((counts) => {
            const inner = counts.reduce((sum, c) => sum + c.files, 0)
            const innerFolders = counts.reduce((sum, c) => sum + c.folders, 0)
            const partial = counts.some((c) => c.partial)
            setCount(
              `${folders.length} folder${folders.length === 1 ? '' : 's'} with ${partial ? 'at least ' : ''}${inner} file${inner === 1 ? '' : 's'} and ${innerFolders} sub-folder${innerFolders === 1 ? '' : 's'} inside${files > 0 ? `, and ${files} file${files === 1 ? '' : 's'}` : ''} will be deleted, everything inside included.`,
            )
          })
          .catch((reason: unknown) =>
            setCount(`Could not count the contents: ${problemOf(reason)}`),
          )
      }
    }
  }, [pending])

  if (pending === null)
    return (
      <Dialog title="" open={false} onClose={onClose}>
        {null}
      </Dialog>
    )

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (reason) {
      // The dialog stays open with what was typed, and the API's reason.
      setError(problemOf(reason))
      setBusy(false)
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending.kind === 'new-folder') {
      void run(async () => {
        const folder = await api.createFolder(value.trim(), path)
        await onDone(`Folder ${folder.name} made.`, true, [])
      })
    } else if (pending.kind === 'rename') {
      const item = pending.item
      void run(async () => {
        if (item.type === 'file') await api.updateFile(item._id, { name: value.trim() })
        else await api.updateFolder(item.fullPath, { name: value.trim() })
        await onDone(`Renamed ${item.name} to ${value.trim()}.`, item.type === 'folder', [])
      })
    } else if (pending.kind === 'move') {
      void run(async () => {
        await moveItems(pending.items, value)
        onClose()
      })
    } else {
      void run(async () => {
        let files = 0
        let folders = 0
        const removed: string[] = []
        for (const item of pending.items) {
          if (item.type === 'file') {
            await api.deleteFile(item._id)
            files += 1
          } else {
            const answer = await api.deleteFolder(item.fullPath, true)
            files += answer.deleted.files
            folders += 1
          }
          removed.push(keyOf(item))
        }
        await onDone(
          `Deleted ${files} file${files === 1 ? '' : 's'}${folders > 0 ? ` and ${folders} folder${folders === 1 ? '' : 's'}` : ''}.`,
          folders > 0,
          removed,
        )
      })
    }
  }

  const titles = {
    'new-folder': 'New folder',
    rename: 'Rename',
    move: 'Move to a folder',
    delete: 'Delete for good?',
  }
  return (
    <Dialog title={titles[pending.kind]} open onClose={onClose} testId="action-dialog">
      <form onSubmit={submit}>
        {pending.kind === 'delete' ? (
          <>
            <ul className="dialog-list">
              {pending.items.slice(0, 10).map((item) => (
                <li key={keyOf(item)}>
                  {item.type === 'folder' ? `Folder ${item.fullPath}` : item.fullPath}
                </li>
              ))}
              {pending.items.length > 10 ? <li>and {pending.items.length - 10} more</li> : null}
            </ul>
            <p data-testid="delete-count">{count}</p>
            <p>Delivery URLs of deleted files stop working at once.</p>
          </>
        ) : (
          <div className="field">
            <label htmlFor="dialog-value">
              {pending.kind === 'move' ? 'Destination folder (empty for All files)' : 'Name'}
            </label>
            <input
              id="dialog-value"
              value={value}
              autoFocus
              required={pending.kind !== 'move'}
              onChange={(event) => setValue(event.target.value)}
              data-testid="dialog-input"
            />
          </div>
        )}
        <ErrorText message={error} testId="dialog-error" />
        <div className="button-row">
          <button
            type="submit"
            className={`button ${pending.kind === 'delete' ? 'is-danger' : 'is-primary'}`}
            disabled={busy}
            data-testid="dialog-confirm"
          >
            {pending.kind === 'delete'
              ? 'Delete'
              : pending.kind === 'move'
                ? 'Move'
                : pending.kind === 'rename'
                  ? 'Rename'
                  : 'Create'}
          </button>
          <button type="button" className="button is-ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  )
}

export const ErrorBoundary = RouteErrorBoundary
