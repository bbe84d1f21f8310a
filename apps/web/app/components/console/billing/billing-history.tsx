// What the billing page lists a page at a time: the receipts of paid payments (owners only) and
// the credit ledger.
import type { ConsoleApi, LedgerEntry, Paged, Payment } from '../../../lib/console-api.ts'
import { formatDate } from '../console-ui.tsx'
import { DataTable, NewerOlderPager } from '../data-table.tsx'
import { ListState, type Loaded } from '../load-state.tsx'
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

export function Receipts({ api, receipts }: { api: ConsoleApi; receipts: PagedList<Payment> }) {
  const { pageNo, setPageNo } = receipts
  return (
    <>
      <h2>Receipts</h2>
      <ListState
        load={receipts}
        label="the receipts"
        empty={(answer) =>
          answer.items.length > 0 ? null : <p>No payments yet: each one paid gets a receipt.</p>
        }
      >
        {(answer) => (
          <>
            <DataTable testId="receipts" columns={['Receipt', 'Paid', 'What', 'Amount']}>
              {answer.items.map((paid) => (
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
                    <a
                      href={api.receiptUrl(paid.paymentId, true)}
                      download
                      data-testid="receipt-download"
                    >
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
              ))}
            </DataTable>
            {answer.page.hasNext || pageNo > 1 ? (
              <NewerOlderPager
                label="Receipt pages"
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

export function Ledger({ ledger }: { ledger: PagedList<LedgerEntry> }) {
  const { pageNo, setPageNo } = ledger
  return (
    <>
      <h2>Credit ledger</h2>
      <ListState
        load={ledger}
        label="the ledger"
        empty={(answer) => (answer.items.length > 0 ? null : <p>No credit changes yet.</p>)}
      >
        {(answer) => (
          <>
            <DataTable testId="ledger" columns={['When', 'What', 'Change', 'Balance']}>
              {answer.items.map((entry) => (
                <tr key={entry._id} data-testid="ledger-row" data-reason={entry.reason}>
                  <td>{formatDate(entry.createdAt)}</td>
                  <td>{REASONS[entry.reason] ?? entry.reason}</td>
                  <td className={entry.delta < 0 ? 'is-negative' : 'is-positive'}>
                    {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                  </td>
                  <td>{entry.balance}</td>
                </tr>
              ))}
            </DataTable>
            <NewerOlderPager
              label="Ledger pages"
              pageNo={pageNo}
              hasNext={answer.page.hasNext}
              onPage={setPageNo}
            >
              Page {pageNo}
            </NewerOlderPager>
          </>
        )}
      </ListState>
    </>
  )
}
