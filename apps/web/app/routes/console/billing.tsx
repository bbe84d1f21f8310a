// Billing (/console/organization/{orgId}/billing/plans/subscription and …/topup): the plans and
// addons of the pricing page with the current plan marked, buying through the payment provider
// (in this tab: the provider sends the buyer back here with ?paymentId=…&status=…), the result
// shown when the payment settles, the balance and the ledger (paged). The pieces are in
// components/console/billing/.
import { useCallback, useEffect, useRef, useState } from 'react'
import { NavLink, useLocation, useSearchParams } from 'react-router'
import { Ledger, Receipts } from '../../components/console/billing/billing-history.tsx'
import { BillingSummary, PaymentResult } from '../../components/console/billing/billing-summary.tsx'
import { AddonCard, PlanCard } from '../../components/console/billing/plan-cards.tsx'
import { usePayment } from '../../components/console/billing/use-payment.ts'
import { ownsOrg, useConsole } from '../../components/console/console-context.tsx'
import { ErrorText } from '../../components/console/console-ui.tsx'
import { ListState, useLoad } from '../../components/console/load-state.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { getAddons, getPlans } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { type Paged, type Payment, problemOf } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/billing.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Billing', noIndex: true })

const LEDGER_PAGE = 10

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
  const isOwner = ownsOrg(org.role)
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
  // Once a payment settles, the balance, plan, ledger and receipts are read again.
  const reloadCredits = credits.reload
  const reloadLedger = ledger.reload
  const reloadReceipts = receipts.reload
  const reloadAll = useCallback(
    () => Promise.all([reloadCredits(), reloadLedger(), reloadReceipts()]),
    [reloadCredits, reloadLedger, reloadReceipts],
  )
  const paymentId = params.get('paymentId')
  const { buying, buy, payment, error, setError } = usePayment({
    api,
    paymentId,
    reload: reloadAll,
  })
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
  const preselectRef = useRef<HTMLButtonElement>(null)
  const resultRef = useRef<HTMLParagraphElement>(null)
  const settledStatus = payment === null || payment.status === 'pending' ? null : payment.status

  useEffect(() => {
    if (catalogue.state.status === 'ready' && paymentId === null) preselectRef.current?.focus()
  }, [catalogue.state.status, paymentId])

  // Back from the checkout: the outcome is where the keyboard and the screen reader are.
  useEffect(() => {
    if (settledStatus !== null) resultRef.current?.focus()
  }, [settledStatus])

  const current = credits.state.status === 'ready' ? credits.state.data : null
  const currentPlanId = current?.plan?._id ?? (current === null ? undefined : config.freePlanId)
  const base = `/console/organization/${encodeURIComponent(org._id)}/billing/plans`
  const card = {
    chosenRef: preselectRef,
    canBuy: isOwner,
    buying,
    buy: (body: Parameters<typeof buy>[0]) => void buy(body),
  }

  return (
    <div className="console-panel is-wide" data-testid="billing-page">
      <p className="eyebrow">Billing</p>
      <h1>Plans and credits</h1>
      <BillingSummary
        current={current}
        isOwner={isOwner}
        changingTerm={changingTerm}
        changeTerm={(cancel) => void changeTerm(cancel)}
        openPortal={() => void openPortal()}
      />
      {credits.state.status === 'error' ? <ErrorText message={credits.state.message} /> : null}
      {payment === null ? null : (
        <PaymentResult payment={payment} buying={buying !== null} resultRef={resultRef} />
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
        load={catalogue}
        label="plans"
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
            <ul className="plan-grid">
              {addons.map((addon) => (
                <AddonCard
                  key={addon._id}
                  addon={addon}
                  isChosen={addon._id === preselected}
                  {...card}
                />
              ))}
            </ul>
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
                ].map((plan) => (
                  <PlanCard
                    key={plan._id}
                    plan={plan}
                    isCurrent={plan._id === currentPlanId}
                    isFree={plan._id === config.freePlanId}
                    isChosen={plan._id === preselected}
                    {...card}
                  />
                ))}
              </ul>
            </>
          )
        }
      </ListState>
      {isOwner ? (
        <Receipts
          api={api}
          receipts={{ ...receipts, pageNo: receiptsPage, setPageNo: setReceiptsPage }}
        />
      ) : null}
      <Ledger ledger={{ ...ledger, pageNo: ledgerPage, setPageNo: setLedgerPage }} />
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
