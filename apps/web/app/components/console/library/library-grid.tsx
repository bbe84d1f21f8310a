// The library's files and folders as a grid or a list: each with its checkbox, thumbnail (none
// when delivery requires signed URLs), name and details, draggable onto a folder.
import { formatBytes } from '@tessera/url'
import type { DragEvent } from 'react'
import type { LibraryItem } from '../../../lib/console-api.ts'
import { formatDuration, thumbnailUrl, videoThumbnailUrl } from '../../../lib/console-urls.ts'
import { formatDate } from '../console-ui.tsx'
import { keyOf } from './library-state.ts'

/** The drag and drop handlers of one item (a folder takes drops). */
export interface DragHandlers {
  draggable?: boolean
  onDragStart?: (event: DragEvent) => void
  onDragOver?: (event: DragEvent) => void
  onDragLeave?: () => void
  onDrop?: (event: DragEvent) => void
}

export function LibraryGrid({
  items,
  view,
  path,
  selected,
  dropTarget,
  onToggle,
  onOpen,
  dragProps,
  dropProps,
  readOnly = false,
}: {
  items: LibraryItem[]
  view: 'grid' | 'list'
  path: string
  selected: ReadonlySet<string>
  dropTarget: string | null
  /** The organisation requires signed URLs (thumbnails come through the session's preview path). */
  signedOnly: boolean
  onToggle: (item: LibraryItem) => void
  onOpen: (item: LibraryItem) => void
  dragProps: (item: LibraryItem) => DragHandlers
  dropProps: (item: LibraryItem) => DragHandlers
  /** A viewer's library: nothing to select, drag or drop (the server refuses changes too). */
  readOnly?: boolean
}) {
  return (
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
              dropTarget === item.fullPath && item.type === 'folder' ? 'is-drop-target' : '',
            ].join(' ')}
            data-testid="library-item"
            data-name={item.name}
            data-type={item.type}
            {...(readOnly ? {} : dragProps(item))}
            {...(readOnly ? {} : dropProps(item))}
          >
            {readOnly ? null : (
              <input
                type="checkbox"
                className="item-check"
                checked={isSelected}
                onChange={() => onToggle(item)}
                aria-label={`Select ${item.name}`}
              />
            )}
            <button
              type="button"
              className="item-open bare-button"
              onClick={() => onOpen(item)}
              aria-label={item.type === 'folder' ? `Open folder ${item.name}` : `Show ${item.name}`}
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
                ) : item.assetType === undefined || item.assetType === 'image' ? (
                  <img src={thumbnailUrl(item.url)} alt="" loading="lazy" />
                ) : item.assetType === 'video' ? (
                  <>
                    <img src={videoThumbnailUrl(item.url)} alt="" loading="lazy" />
                    {item.duration === undefined ? null : (
                      <span className="item-duration" data-testid="item-duration">
                        {formatDuration(item.duration)}
                      </span>
                    )}
                  </>
                ) : (
                  <span className="raw-icon" data-private={item.access === 'private' || undefined}>
                    {item.access === 'private' ? (
                      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
                        <path
                          d="M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1zm2 0h6V7a3 3 0 0 0-6 0z"
                          fill="currentColor"
                        />
                      </svg>
                    ) : (
                      item.format.toUpperCase()
                    )}
                  </span>
                )}
              </span>
              <span className="item-name">{item.name}</span>
              {item.type === 'file' ? (
                <span className="item-meta">
                  {(item.tags ?? []).length > 0 ? (
                    <span className="item-tags" data-testid="item-tags">
                      {(item.tags ?? []).join(', ')}
                    </span>
                  ) : null}
                  <span>{formatBytes(item.size)}</span>
                  <span>{item.format}</span>
                  <span>
                    {item.width === null || item.height === null
                      ? '—'
                      : `${item.width}×${item.height}`}
                  </span>
                  {item.duration === undefined ? null : (
                    <span>{formatDuration(item.duration)}</span>
                  )}
                  {item.pages === undefined ? null : (
                    <span>{item.pages === 1 ? '1 page' : `${item.pages} pages`}</span>
                  )}
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
  )
}
