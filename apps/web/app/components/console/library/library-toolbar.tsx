// The library's controls: search, the tag filter, sort and view above the files, the bar of
// what is selected (rename, move, tag, delete), and the pager below.
import type { LibraryItem } from '../../../lib/console-api.ts'
import { type Pending, SORTS, type Sort } from './library-state.ts'

type ParamsChange = (changes: Record<string, string | undefined>) => void

export function LibraryToolbar({
  search,
  sort,
  view,
  tag,
  tags,
  chosen,
  onSearch,
  onChange,
  onAsk,
  onClearSelection,
}: {
  search: string
  sort: Sort
  view: 'grid' | 'list'
  /** The tag filter ('' for none) and the tags in use to choose from. */
  tag: string
  tags: { tag: string; files: number }[]
  chosen: LibraryItem[]
  onSearch: (text: string) => void
  onChange: ParamsChange
  onAsk: (pending: Pending) => void
  onClearSelection: () => void
}) {
  return (
    <>
      <div className="editor-toolbar">
        <label className="search-field">
          <span className="visually-hidden">Search by name in this folder and below</span>
          <input
            type="search"
            placeholder="Search by name in this folder and below"
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            data-testid="library-search"
          />
        </label>
        <label>
          <span className="visually-hidden">Only files tagged</span>
          <select
            value={tag}
            onChange={(event) => onChange({ tag: event.target.value, page: undefined })}
            data-testid="library-tag-filter"
          >
            <option value="">All tags</option>
            {tags.map((entry) => (
              <option key={entry.tag} value={entry.tag}>
                {entry.tag} ({entry.files})
              </option>
            ))}
            {tag !== '' && !tags.some((entry) => entry.tag === tag) ? (
              <option value={tag}>{tag}</option>
            ) : null}
          </select>
        </label>
        <label>
          <span className="visually-hidden">Sort</span>
          <select
            value={sort}
            onChange={(event) => onChange({ sort: event.target.value, page: undefined })}
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
            onClick={() => onChange({ view: undefined })}
          >
            Grid
          </button>
          <button
            type="button"
            aria-pressed={view === 'list'}
            onClick={() => onChange({ view: 'list' })}
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
              onClick={() => onAsk({ kind: 'rename', item: chosen[0] as LibraryItem })}
            >
              Rename
            </button>
          ) : null}
          <button
            type="button"
            className="button is-small is-secondary"
            onClick={() => onAsk({ kind: 'move', items: chosen })}
          >
            Move…
          </button>
          {chosen.some((item) => item.type === 'file') ? (
            <button
              type="button"
              className="button is-small is-secondary"
              onClick={() => onAsk({ kind: 'tag', items: chosen })}
              data-testid="bulk-tag"
            >
              Tag…
            </button>
          ) : null}
          <button
            type="button"
            className="button is-small is-danger"
            onClick={() => onAsk({ kind: 'delete', items: chosen })}
          >
            Delete…
          </button>
          <button type="button" className="button is-small is-ghost" onClick={onClearSelection}>
            Clear
          </button>
        </section>
      ) : null}
    </>
  )
}

export function LibraryPager({
  page,
  pageNo,
  pageCount,
  onChange,
}: {
  page: { itemTotal: number; hasNext: boolean } | null
  pageNo: number
  pageCount: number
  onChange: ParamsChange
}) {
  return (
    <>
      {page !== null && pageCount > 1 ? (
        <nav className="pager" aria-label="Pages">
          <button
            type="button"
            className="button is-small is-secondary"
            disabled={pageNo <= 1}
            onClick={() => onChange({ page: String(pageNo - 1) })}
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
            onClick={() => onChange({ page: String(pageNo + 1) })}
          >
            Next
          </button>
        </nav>
      ) : null}
    </>
  )
}
