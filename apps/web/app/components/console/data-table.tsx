// The console's tables (members, API tokens, the credit ledger): scrolled sideways on a narrow
// screen, one header row of column titles.
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
