// The media library (/console/editor): folders as a tree and breadcrumbs, files as a grid or a
// list, sort, search (by name, in the folder and below) and the tag filter, paging as the API
// pages, selection, rename, move, tag, delete and new folder.
// Its state is components/console/library/library-state.ts; the grid, the toolbar and the
// dialog are beside it.
import { useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useConsole } from '../../components/console/console-context.tsx'
import { ErrorText } from '../../components/console/console-ui.tsx'
import { FilePanel } from '../../components/console/file-panel.tsx'
import { DRAG_TYPE, FolderTree } from '../../components/console/folder-tree.tsx'
import { ActionDialog } from '../../components/console/library/action-dialog.tsx'
import { LibraryGrid } from '../../components/console/library/library-grid.tsx'
import {
  INITIAL_LIBRARY,
  isSearching,
  keyOf,
  libraryReducer,
  movedNotice,
  PAGE_SIZE,
  pageCountOf,
  readLibraryParams,
  withParams,
} from '../../components/console/library/library-state.ts'
import { LibraryPager, LibraryToolbar } from '../../components/console/library/library-toolbar.tsx'
import { ListState, useLoad } from '../../components/console/load-state.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import type { LibraryItem } from '../../lib/console-api.ts'
import { problemOf } from '../../lib/console-api.ts'
import { crumbs, normalisePath } from '../../lib/console-urls.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/editor.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Media library', noIndex: true })

export default function Editor() {
  const { api, org } = useConsole()
  const [params, setParams] = useSearchParams()
  const { path, q, pageNo, view, sort, tag } = readLibraryParams(params)
  const searching = isSearching({ q, tag })
  const [search, setSearch] = useState(q)
  const [state, dispatch] = useReducer(libraryReducer, INITIAL_LIBRARY)
  const { selected, open, pending, notice, actionError, dropTarget, treeVersion } = state

  // With signed URLs required, delivery refuses the console's unsigned thumbnails: none are
  // asked for, and the page says why.
  const settings = useLoad(() => api.settings(), `settings:${org._id}`)
  const signedOnly = settings.state.status === 'ready' && settings.state.data.requireSignedUrls
  const list = useLoad(
    // The API sorts the whole folder (or every match), so every page follows the order chosen.
    // A name or a tag searches the folder and everything below it.
    () =>
      searching
        ? api.searchFiles({
            path,
            name: q.trim(),
            tags: tag === '' ? [] : [tag],
            ...(sort === 'name' ? {} : { sort }),
            pageNo,
            pageSize: PAGE_SIZE,
          })
        : api.listFiles({
            path,
            ...(sort === 'name' ? {} : { sort }),
            pageNo,
            pageSize: PAGE_SIZE,
          }),
    `${org._id}|${path}|${q}|${tag}|${sort}|${pageNo}`,
  )
  // The tags in use, read again after every change of the list (a tag added or removed).
  const [tagsVersion, setTagsVersion] = useState(0)
  const tagList = useLoad(() => api.listTags(), `tags:${org._id}|${tagsVersion}`)
  const tags = tagList.state.status === 'ready' ? tagList.state.data.items : []

  // From the address as it is when the change lands (the latest render's): the search's delayed
  // change must not undo a filter chosen meanwhile.
  const latestParams = useRef(params)
  latestParams.current = params
  const change = (next: Record<string, string | undefined>) =>
    setParams(withParams(latestParams.current, next), { preventScrollReset: true })
  const openFolder = (folder: string) => {
    dispatch({ type: 'open_folder' })
    setSearch('')
    change({ path: folder, q: undefined, tag: undefined, page: undefined, file: undefined })
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
        if (current) dispatch({ type: 'open_file', file })
      })
      .catch((reason: unknown) => {
        if (current) dispatch({ type: 'failed', message: problemOf(reason) })
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

  // The notice shows once the list shows the change, so what it says is what is on screen.
  const afterChange = async (message: string, foldersChanged: boolean) => {
    dispatch({ type: 'changing', foldersChanged })
    setTagsVersion((version) => version + 1)
    await list.reload()
    dispatch({ type: 'changed', notice: message })
  }

  /** Moves items (dragged, or from the dialog) into a folder; stops at the first failure. */
  const moveItems = async (targets: LibraryItem[], destination: string) => {
    const folder = normalisePath(destination)
    let moved = 0
    for (const item of targets) {
      if (item.type === 'file') {
        if (item.path === folder) continue
        const file = await api.updateFile(item._id, { path: folder })
        dispatch({ type: 'file_changed', file })
      } else {
        if (item.path === folder || item.fullPath === folder) continue
        await api.updateFolder(item.fullPath, { path: folder })
      }
      moved += 1
    }
    await afterChange(movedNotice(moved, folder), true)
  }

  const onDropItems = async (keys: string[], destination: string) => {
    const targets = items.filter((item) => keys.includes(keyOf(item)))
    if (targets.length === 0) return
    dispatch({ type: 'failed', message: null })
    try {
      await moveItems(targets, destination)
    } catch (error) {
      dispatch({ type: 'failed', message: problemOf(error) })
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
            dispatch({ type: 'drop_target', folder: item.fullPath })
          },
          onDragLeave: () => dispatch({ type: 'drop_target', folder: null }),
          onDrop: (event: React.DragEvent) => {
            dispatch({ type: 'drop_target', folder: null })
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
  const pageCount = pageCountOf(page?.itemTotal)
  const uploadHref = `/console/editor/upload${path === '' ? '' : `?path=${encodeURIComponent(path)}`}`
  // A viewer reads the library; changing it takes the member role (the server refuses it too).
  const readOnly = org.role === 'viewer'

  return (
    <div className="editor" data-testid="editor">
      <div className="page-head">
        <div>
          <p className="eyebrow">Media library</p>
          <h1>{path === '' ? 'All files' : path.split('/').pop()}</h1>
        </div>
        {readOnly ? null : (
          <div className="button-row">
            <button
              type="button"
              className="button is-secondary is-small"
              onClick={() => dispatch({ type: 'ask', pending: { kind: 'new-folder' } })}
            >
              New folder
            </button>
            <Link to={uploadHref} className="button is-primary is-small">
              Upload
            </Link>
          </div>
        )}
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
          <LibraryToolbar
            search={search}
            sort={sort}
            view={view}
            tag={tag}
            tags={tags}
            chosen={chosen}
            onSearch={setSearch}
            onChange={change}
            onAsk={(next) => dispatch({ type: 'ask', pending: next })}
            onClearSelection={() => dispatch({ type: 'clear_selection' })}
          />
          {notice === null ? null : (
            <p className="form-alert is-success" role="status" data-testid="library-notice">
              {notice}
            </p>
          )}
          <ErrorText message={actionError} />
          {signedOnly ? (
            <p className="form-alert" data-testid="signed-only">
              This organisation requires signed URLs: delivery URLs need a signature, and the
              console shows its own previews by your session (
              <Link to={`/console/organization/${org._id}/settings/security`}>Security</Link>).
            </p>
          ) : null}
          <ListState
            load={list}
            label="this folder"
            empty={(answer) =>
              answer.items.length > 0 ? null : searching ? (
                <p data-testid="library-no-match">
                  Nothing in this folder or below
                  {q.trim() === '' ? '' : ` has “${q.trim()}” in its name`}
                  {q.trim() !== '' && tag !== '' ? ' and' : ''}
                  {tag === '' ? '' : ` is tagged “${tag}”`}.
                </p>
              ) : path === '' ? (
                <>
                  <h2>Your library is empty</h2>
                  <p>Upload images to store, transform and deliver them.</p>
                  {readOnly ? null : (
                    <Link to={uploadHref} className="button is-primary">
                      Upload files
                    </Link>
                  )}
                </>
              ) : (
                <>
                  <p>This folder is empty.</p>
                  {readOnly ? null : (
                    <Link to={uploadHref} className="button is-primary is-small">
                      Upload here
                    </Link>
                  )}
                </>
              )
            }
          >
            {() => (
              <LibraryGrid
                items={items}
                view={view}
                path={path}
                selected={selected}
                dropTarget={dropTarget}
                signedOnly={signedOnly}
                onToggle={(item) => dispatch({ type: 'toggle', key: keyOf(item) })}
                onOpen={(item) =>
                  item.type === 'folder'
                    ? openFolder(item.fullPath)
                    : dispatch({ type: 'open_file', file: item })
                }
                dragProps={dragProps}
                dropProps={dropProps}
                readOnly={readOnly}
              />
            )}
          </ListState>
          {page !== null && pageCount > 1 ? (
            <LibraryPager page={page} pageNo={pageNo} pageCount={pageCount} onChange={change} />
          ) : null}
        </section>
        {open === null ? null : (
          <FilePanel
            file={open}
            previews
            onClose={() => {
              dispatch({ type: 'open_file', file: null })
              if (params.has('file')) change({ file: undefined })
            }}
            onChanged={(file, what) => {
              dispatch({ type: 'open_file', file })
              void afterChange(
                what === 'renamed' ? `Renamed to ${file.name}.` : `Saved ${file.name}.`,
                false,
              )
            }}
            onMove={() => dispatch({ type: 'ask', pending: { kind: 'move', items: [open] } })}
            onDelete={() => dispatch({ type: 'ask', pending: { kind: 'delete', items: [open] } })}
          />
        )}
      </div>
      <ActionDialog
        pending={pending}
        path={path}
        onClose={() => dispatch({ type: 'ask', pending: null })}
        onDone={async (message, foldersChanged, removed) => {
          dispatch({ type: 'ask', pending: null })
          dispatch({ type: 'removed', keys: removed })
          await afterChange(message, foldersChanged)
        }}
        moveItems={moveItems}
      />
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
