// The console's tables (members, API tokens, the credit ledger): scrolled sideways on a narrow
// screen, one header row of column titles; and the pager below the ones read a page at a time.
import type { ReactNode } from 'react'

/** The title of a column of row buttons: read by screen readers, not shown. */
export const ACTIONS_COLUMN = <span className="visually-hidden">Actions</span>

export function DataTable({
  testId,
  columns,
  children,
}: {
  testId: string
  columns: ReactNode[]
  /** The rows. */
  children: ReactNode
}) {
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed per table
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/**
 * "Newer" and "Older" around what page this is (the ledger, receipts, the activity log): a `nav`
 * named `label`, or a plain row of buttons with `className`.
 */
export function NewerOlderPager({
  label,
  className = 'pager',
  pageNo,
  hasNext,
  onPage,
  olderTestId,
  children,
}: {
  label?: string
  className?: string
  pageNo: number
  hasNext: boolean
  onPage: (pageNo: number) => void
  olderTestId?: string
  /** What sits between the buttons (the page number). */
  children: ReactNode
}) {
  const buttons = (
    <>
      <button
        type="button"
        className="button is-small is-secondary"
        disabled={pageNo <= 1}
        onClick={() => onPage(pageNo - 1)}
      >
        Newer
      </button>
      <span>{children}</span>
      <button
        type="button"
        className="button is-small is-secondary"
        disabled={!hasNext}
        onClick={() => onPage(pageNo + 1)}
        data-testid={olderTestId}
      >
        Older
      </button>
    </>
  )
  return label === undefined ? (
    <div className={className}>{buttons}</div>
  ) : (
    <nav className={className} aria-label={label}>
      {buttons}
    </nav>
  )
}
