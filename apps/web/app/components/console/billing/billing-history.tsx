// What the billing page lists a page at a time: the receipts of paid payments (owners only) and
// the credit ledger.
import type { ReactNode } from 'react'
import type { ConsoleApi, LedgerEntry, Paged, Payment } from '../../../lib/console-api.ts'
import { formatDate } from '../console-ui.tsx'
import { DataTable, NewerOlderPager } from '../data-table.tsx'
import { emptyText, ListState, type Loaded } from '../load-state.tsx'
import { money } from './plan-cards.tsx'

const REASONS: Record<string, string> = {
  free_plan: 'Free plan',
  subscription: 'Subscription',
  topup: 'Top-up',
  ai_transformation: 'AI transformation',
  prediction: 'Prediction',
  prediction_refund: 'Prediction refund',
  demo_allowance: 'Demo allowance',
}

interface PagedList<T> {
  state: Loaded<Paged<T>>
  reload: () => Promise<unknown>
  pageNo: number
  setPageNo: (pageNo: number) => void
}

/**
 * A paged list of the billing page: its title, the table of the page shown and "Newer" and
 * "Older" (`pagerAlways`: even when there is one page).
 */
function PagedTable<T>({
  title,
  list,
  label,
  empty,
  testId,
  columns,
  pagerLabel,
  pagerAlways = false,
  row,
}: {
  title: string
  list: PagedList<T>
  label: string
  empty: string
  testId: string
  columns: string[]
  pagerLabel: string
  pagerAlways?: boolean
  row: (item: T) => ReactNode
}) {
  const { pageNo, setPageNo } = list
  return (
    <>
      <h2>{title}</h2>
      <ListState load={list} label={label} empty={emptyText(empty)}>
        {(answer) => (
          <>
            <DataTable testId={testId} columns={columns}>
              {answer.items.map(row)}
            </DataTable>
            {pagerAlways || answer.page.hasNext || pageNo > 1 ? (
              <NewerOlderPager
                label={pagerLabel}
                pageNo={pageNo}
                hasNext={answer.page.hasNext}
                onPage={setPageNo}
              >
                Page {pageNo}
              </NewerOlderPager>
            ) : null}
          </>
        )}
      </ListState>
    </>
  )
}

export function Receipts({ api, receipts }: { api: ConsoleApi; receipts: PagedList<Payment> }) {
  return (
    <PagedTable
      title="Receipts"
      list={receipts}
      label="the receipts"
      empty="No payments yet: each one paid gets a receipt."
      testId="receipts"
      columns={['Receipt', 'Paid', 'What', 'Amount']}
      pagerLabel="Receipt pages"
      row={(paid) => (
        <tr key={paid.paymentId} data-testid="receipt-row">
          <td>
            <a
              href={api.receiptUrl(paid.paymentId)}
              target="_blank"
              rel="noopener"
              className="receipt-number"
              data-testid="receipt-open"
            >
              {paid.receiptNumber ?? 'Receipt'}
            </a>
            <br />
            <a href={api.receiptUrl(paid.paymentId, true)} download data-testid="receipt-download">
              Download
            </a>
          </td>
          <td>{paid.completedAt === null ? '—' : formatDate(paid.completedAt)}</td>
          <td>
            {paid.kind === 'subscription' ? 'Subscription' : 'Top-up'} ·{' '}
            {paid.credits.toLocaleString('en-US')} credits
          </td>
          <td>{money(paid.amount, paid.currency)}</td>
        </tr>
      )}
    />
  )
}

export function Ledger({ ledger }: { ledger: PagedList<LedgerEntry> }) {
  return (
    <PagedTable
      title="Credit ledger"
      list={ledger}
      label="the ledger"
      empty="No credit changes yet."
      testId="ledger"
      columns={['When', 'What', 'Change', 'Balance']}
      pagerLabel="Ledger pages"
      pagerAlways
      row={(entry) => (
        <tr key={entry._id} data-testid="ledger-row" data-reason={entry.reason}>
          <td>{formatDate(entry.createdAt)}</td>
          <td>{REASONS[entry.reason] ?? entry.reason}</td>
          <td className={entry.delta < 0 ? 'is-negative' : 'is-positive'}>
            {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
          </td>
          <td>{entry.balance}</td>
        </tr>
      )}
    />
  )
}
