// Billing (/console/organization/{orgId}/billing/plans/subscription and …/topup): the plans and
// addons of the pricing page with the current plan marked, buying through the payment provider
// (in this tab: the provider sends the buyer back here with ?paymentId=…&status=…), the result
// shown when the payment settles, the balance and the ledger (paged).
import { useCallback, useEffect, useRef, useState } from 'react'
import { NavLink, useLocation, useSearchParams } from 'react-router'
import {
  ErrorText,
  formatDate,
  ListState,
  useConsole,
  useLoad,
} from '../../components/console/console-context.tsx'
import { DataTable } from '../../components/console/data-table.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { type Addon, getAddons, getPlans, type Plan } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { codeOf, type Paged, type Payment, problemOf } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/billing.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Billing', noIndex: true })

const LEDGER_PAGE = 10
const POLL_MS = 1500

const REASONS: Record<string, string> = {
  free_plan: 'Free plan',
  subscription: 'Subscription',
  topup: 'Top-up',
  ai_transformation: 'AI transformation',
  prediction: 'Prediction',
  prediction_refund: 'Prediction refund',
  demo_allowance: 'Demo allowance',
}

function money(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)
}

export default function Billing() {
  const config = useConfig()
  const session = useSession()
  const { api, org } = useConsole()
  const location = useLocation()
  const [params, setParams] = useSearchParams()
  const kind = location.pathname.endsWith('/topup') ? 'topup' : 'subscription'
  const yearly = params.get('interval') === 'yearly'
  const preselected = Number(params.get(kind === 'topup' ? 'addonId' : 'planId') ?? Number.NaN)
  const [ledgerPage, setLedgerPage] = useState(1)
  const [buying, setBuying] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [payment, setPayment] = useState<Payment | null>(null)
  const credits = useLoad(() => api.credits(), `credits:${org._id}`)
  const catalogue = useLoad(async () => {
    const [plans, addons] = await Promise.all([
      getPlans(session.client, config),
      getAddons(session.client, config),
    ])
    return { plans, addons }
  }, 'catalogue')
  const ledger = useLoad(
    () => api.ledger(ledgerPage, LEDGER_PAGE),
    `ledger:${org._id}:${ledgerPage}`,
  )
  const isOwner = org.role === undefined || org.role === 'owner'
  const [receiptsPage, setReceiptsPage] = useState(1)
  // Members see no receipts (owners buy): nothing is asked for them.
  const receipts = useLoad(
    (): Promise<Paged<Payment>> =>
      isOwner
        ? api.paidPayments(receiptsPage, LEDGER_PAGE)
        : Promise.resolve({
            items: [],
            page: { current: 1, size: LEDGER_PAGE, hasNext: false, itemTotal: 0 },
          }),
    `receipts:${org._id}:${receiptsPage}`,
  )
  const [changingTerm, setChangingTerm] = useState(false)
  // Cancel at the end of the period (the plan stays until then), or take that back.
  const changeTerm = async (cancel: boolean) => {
    setChangingTerm(true)
    setError(null)
    try {
      await api.setSubscriptionCancel(cancel)
      await credits.reload()
    } catch (reason) {
      setError(problemOf(reason))
    } finally {
      setChangingTerm(false)
    }
  }
  const openPortal = async () => {
    setError(null)
    try {
      const { url } = await api.billingPortal(window.location.href.split('?')[0] ?? '')
      window.location.assign(url)
    } catch (reason) {
      setError(problemOf(reason))
    }
  }
  const paymentId = params.get('paymentId')
  const preselectRef = useRef<HTMLButtonElement>(null)
  const resultRef = useRef<HTMLParagraphElement>(null)
  const settledStatus = payment === null || payment.status === 'pending' ? null : payment.status

  // The payment named in the address (the provider's way back, so a reload shows it again) is
  // read from the API, never taken from the query, and polled while the provider has not told
  // us yet (its webhook may come after the buyer); then the balance, plan and ledger are read
  // again.
  const reloadCredits = credits.reload
  const reloadLedger = ledger.reload
  const reloadReceipts = receipts.reload
  const follow = useCallback(
    async (id: string, signal: AbortSignal) => {
      for (let tries = 0; tries < 400 && !signal.aborted; tries++) {
        try {
          const current = await api.payment(id)
          setPayment(current)
          if (current.status !== 'pending') {
            await Promise.all([reloadCredits(), reloadLedger(), reloadReceipts()])
            return
          }
        } catch (reason) {
          setError(problemOf(reason))
          return
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    },
    [api, reloadCredits, reloadLedger, reloadReceipts],
  )
  useEffect(() => {
    if (paymentId === null) return
    const controller = new AbortController()
    void follow(paymentId, controller.signal)
    return () => controller.abort()
  }, [paymentId, follow])

  useEffect(() => {
    if (catalogue.state.status === 'ready' && paymentId === null) preselectRef.current?.focus()
  }, [catalogue.state.status, paymentId])

  // Back from the checkout: the outcome is where the keyboard and the screen reader are.
  useEffect(() => {
    if (settledStatus !== null) resultRef.current?.focus()
  }, [settledStatus])

  const buy = async (
    body: { kind: 'subscription'; planId: number } | { kind: 'topup'; addonId: number },
  ) => {
    const id = body.kind === 'subscription' ? body.planId : body.addonId
    setBuying(id)
    setError(null)
    setPayment(null)
    // The provider sends the buyer back to this page (same tab) with paymentId and status; the
    // page then reads the payment and shows what happened.
    const back = new URL(window.location.href)
    back.searchParams.delete('paymentId')
    back.searchParams.delete('status')
    back.hash = ''
    try {
      let answer: Awaited<ReturnType<typeof api.checkout>>
      try {
        answer = await api.checkout({ ...body, returnUrl: back.toString() })
      } catch (reason) {
        // This page is not on the console address the server knows (WEB_CONSOLE_URL), so the
        // provider cannot come back to it: buy without, and follow the payment on return.
        if (codeOf(reason) !== 'invalid_return_url') throw reason
        answer = await api.checkout(body)
      }
      setPayment(answer.payment)
      // Should the buyer come back with the browser's Back button, this page follows the
      // payment from its address.
      const following = new URL(back)
      following.searchParams.set('paymentId', answer.paymentId)
      window.history.replaceState(window.history.state, '', following)
      window.location.assign(answer.checkoutUrl)
    } catch (reason) {
      setError(problemOf(reason))
      setBuying(null)
    }
  }

  // A page restored from the back-forward cache shows the moment it was left ("Opening the
  // checkout…"): load it afresh instead, so it reads the payment.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload()
    }
    window.addEventListener('pageshow', restored)
    return () => window.removeEventListener('pageshow', restored)
  }, [])

  const current = credits.state.status === 'ready' ? credits.state.data : null
  const currentPlanId = current?.plan?._id ?? (current === null ? undefined : config.freePlanId)
  const base = `/console/organization/${encodeURIComponent(org._id)}/billing/plans`

  const planCard = (plan: Plan) => {
    const isCurrent = plan._id === currentPlanId
    const isChosen = plan._id === preselected
    return (
      <li
        key={plan._id}
        className={`card plan-card${isCurrent ? ' is-current' : ''}${isChosen ? ' is-chosen' : ''}`}
        data-testid="plan-card"
        data-plan={plan.name}
      >
        <h3>{plan.name}</h3>
        {isCurrent ? (
          <span className="pill" data-testid="current-plan-mark">
            Current plan
          </span>
        ) : null}
        <p className="plan-price">
          {plan.amount === 0
            ? 'Free'
            : `${money(plan.amount, plan.currency)} / ${(plan.interval ?? 'month').startsWith('yearly') ? 'year' : 'month'}`}
        </p>
        <ul className="plan-features">
          {Object.values(plan.features).map((feature) => (
            <li key={feature.name ?? feature.displayName}>
              {feature.displayName ?? feature.name}:{' '}
              {typeof feature.value === 'boolean'
                ? feature.value
                  ? 'included'
                  : 'not included'
                : `${feature.value}${feature.unit === undefined ? '' : ` ${feature.unit}`}`}
            </li>
          ))}
        </ul>
        {plan._id === config.freePlanId ? null : (
          <button
            type="button"
            ref={isChosen ? preselectRef : undefined}
            className={`button ${isChosen ? 'is-primary' : 'is-secondary'} is-block`}
            disabled={isCurrent || !isOwner || buying !== null}
            onClick={() => void buy({ kind: 'subscription', planId: plan._id })}
            data-testid={`buy-plan-${plan._id}`}
          >
            {isCurrent
              ? 'Your plan'
              : buying === plan._id
                ? 'Opening checkout…'
                : `Choose ${plan.name}`}
          </button>
        )}
      </li>
    )
  }
  const addonCard = (addon: Addon) => {
    const isChosen = addon._id === preselected
    return (
      <li
        key={addon._id}
        className={`card plan-card${isChosen ? ' is-chosen' : ''}`}
        data-testid="addon-card"
      >
        <h3>{addon.name}</h3>
        <p className="plan-price">{money(addon.amount, addon.currency)}</p>
        <p>{addon.description}</p>
        <button
          type="button"
          ref={isChosen ? preselectRef : undefined}
          className={`button ${isChosen ? 'is-primary' : 'is-secondary'} is-block`}
          disabled={!isOwner || buying !== null}
          onClick={() => void buy({ kind: 'topup', addonId: addon._id })}
          data-testid={`buy-addon-${addon._id}`}
        >
          {buying === addon._id ? 'Opening checkout…' : `Buy ${addon.name}`}
        </button>
      </li>
    )
  }

  return (
    <div className="console-panel is-wide" data-testid="billing-page">
      <p className="eyebrow">Billing</p>
      <h1>Plans and credits</h1>
      <div className="stat-grid">
        <div className="card">
          <span>Plan</span>
          <strong data-testid="billing-plan">
            {current === null ? '…' : (current.plan?.name ?? 'Free')}
          </strong>
          {current?.subscription ? (
            <small data-testid="subscription-term">
              {current.subscription.cancelAtPeriodEnd === true
                ? `Canceled: ends on ${formatDate(current.subscription.currentPeriodEnd)}`
                : `Until ${formatDate(current.subscription.currentPeriodEnd)}`}
            </small>
          ) : null}
          {isOwner && current?.subscription?.status === 'active' ? (
            <span className="button-row">
              <button
                type="button"
                className="button is-small is-secondary"
                disabled={changingTerm}
                data-testid={
                  current.subscription.cancelAtPeriodEnd === true
                    ? 'resume-subscription'
                    : 'cancel-subscription'
                }
                onClick={() => void changeTerm(current.subscription?.cancelAtPeriodEnd !== true)}
              >
                {current.subscription.cancelAtPeriodEnd === true
                  ? 'Keep the subscription'
                  : 'Cancel at period end'}
              </button>
              {current.subscription.provider === 'stripe' ? (
                <button
                  type="button"
                  className="button is-small is-secondary"
                  onClick={() => void openPortal()}
                  data-testid="billing-portal"
                >
                  Manage payment details
                </button>
              ) : null}
            </span>
          ) : null}
        </div>
        <div className="card">
          <span>Credits</span>
          <strong data-testid="billing-balance">
            {current === null ? '…' : current.balance.toLocaleString('en-US')}
          </strong>
        </div>
      </div>
      {credits.state.status === 'error' ? <ErrorText message={credits.state.message} /> : null}
      {payment === null ? null : (
        <p
          ref={resultRef}
          tabIndex={-1}
          className={`form-alert ${payment.status === 'paid' ? 'is-success' : payment.status === 'pending' ? '' : 'is-error'}`}
          role="status"
          data-testid="payment-result"
          data-status={payment.status}
        >
          {payment.status === 'pending'
            ? buying !== null
              ? 'Opening the checkout…'
              : 'Waiting for the payment provider to confirm the payment…'
            : payment.status === 'paid'
              ? `Payment received: ${payment.credits} credits added${payment.kind === 'subscription' ? ' and the plan changed' : ''}.`
              : `The payment was ${payment.status}; nothing was charged.`}
          {payment.status === 'pending' && buying === null && payment.checkoutUrl !== undefined ? (
            <>
              {' '}
              <a href={payment.checkoutUrl}>Open the checkout again</a>
            </>
          ) : null}
        </p>
      )}
      <ErrorText message={error} testId="billing-error" />
      {isOwner ? null : (
        <p className="form-alert">Only owners of the organisation can buy plans and credits.</p>
      )}
      <nav className="tabs" aria-label="Billing">
        <NavLink
          to={`${base}/subscription`}
          className={({ isActive }) => (isActive ? 'is-active' : undefined)}
        >
          Subscription
        </NavLink>
        <NavLink
          to={`${base}/topup`}
          className={({ isActive }) => (isActive ? 'is-active' : undefined)}
        >
          Top up credits
        </NavLink>
      </nav>
      <ListState
        state={catalogue.state}
        label="plans"
        onRetry={() => void catalogue.reload()}
        empty={({ plans, addons }) =>
          (kind === 'topup'
            ? addons.length
            : plans.monthlyPlans.length + plans.yearlyPlans.length) > 0 ? null : (
            <p>No {kind === 'topup' ? 'top-ups' : 'plans'} are on sale.</p>
          )
        }
      >
        {({ plans, addons }) =>
          kind === 'topup' ? (
            <ul className="plan-grid">{addons.map(addonCard)}</ul>
          ) : (
            <>
              <fieldset className="interval-toggle" aria-label="Billing interval">
                <button
                  type="button"
                  aria-pressed={!yearly}
                  onClick={() => setParams({}, { replace: true })}
                >
                  Monthly
                </button>
                <button
                  type="button"
                  aria-pressed={yearly}
                  onClick={() => setParams({ interval: 'yearly' }, { replace: true })}
                >
                  Yearly
                </button>
              </fieldset>
              <ul className="plan-grid">
                {[
                  ...(plans.freePlan === null ? [] : [plans.freePlan]),
                  ...(yearly ? plans.yearlyPlans : plans.monthlyPlans),
                ].map(planCard)}
              </ul>
            </>
          )
        }
      </ListState>
      {isOwner ? (
        <>
          <h2>Receipts</h2>
          <ListState
            state={receipts.state}
            label="the receipts"
            onRetry={() => void receipts.reload()}
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
                {answer.page.hasNext || receiptsPage > 1 ? (
                  <nav className="pager" aria-label="Receipt pages">
                    <button
                      type="button"
                      className="button is-small is-secondary"
                      disabled={receiptsPage <= 1}
                      onClick={() => setReceiptsPage(receiptsPage - 1)}
                    >
                      Newer
                    </button>
                    <span>Page {receiptsPage}</span>
                    <button
                      type="button"
                      className="button is-small is-secondary"
                      disabled={!answer.page.hasNext}
                      onClick={() => setReceiptsPage(receiptsPage + 1)}
                    >
                      Older
                    </button>
                  </nav>
                ) : null}
              </>
            )}
          </ListState>
        </>
      ) : null}
      <h2>Credit ledger</h2>
      <ListState
        state={ledger.state}
        label="the ledger"
        onRetry={() => void ledger.reload()}
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
            <nav className="pager" aria-label="Ledger pages">
              <button
                type="button"
                className="button is-small is-secondary"
                disabled={ledgerPage <= 1}
                onClick={() => setLedgerPage(ledgerPage - 1)}
              >
                Newer
              </button>
              <span>Page {ledgerPage}</span>
              <button
                type="button"
                className="button is-small is-secondary"
                disabled={!answer.page.hasNext}
                onClick={() => setLedgerPage(ledgerPage + 1)}
              >
                Older
              </button>
            </nav>
          </>
        )}
      </ListState>
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
