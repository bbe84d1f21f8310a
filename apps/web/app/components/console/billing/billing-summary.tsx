// The top of the billing page: the plan (with its term, cancelling or keeping it, the provider's
// portal), the credit balance, and what became of the payment being followed.
import type { Ref } from 'react'
import type { Credits, Payment } from '../../../lib/console-api.ts'
import { formatDate } from '../console-ui.tsx'

export function BillingSummary({
  current,
  isOwner,
  changingTerm,
  changeTerm,
  openPortal,
}: {
  current: Credits | null
  isOwner: boolean
  changingTerm: boolean
  changeTerm: (cancel: boolean) => void
  openPortal: () => void
}) {
  return (
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
              onClick={() => changeTerm(current.subscription?.cancelAtPeriodEnd !== true)}
            >
              {current.subscription.cancelAtPeriodEnd === true
                ? 'Keep the subscription'
                : 'Cancel at period end'}
            </button>
            {current.subscription.provider === 'stripe' ? (
              <button
                type="button"
                className="button is-small is-secondary"
                onClick={() => openPortal()}
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
  )
}

/** What became of the payment: focused once it settles, for the keyboard and screen readers. */
export function PaymentResult({
  payment,
  buying,
  resultRef,
}: {
  payment: Payment
  buying: boolean
  resultRef: Ref<HTMLParagraphElement>
}) {
  return (
    <p
      ref={resultRef}
      tabIndex={-1}
      className={`form-alert ${payment.status === 'paid' ? 'is-success' : payment.status === 'pending' ? '' : 'is-error'}`}
      role="status"
      data-testid="payment-result"
      data-status={payment.status}
    >
      {payment.status === 'pending'
        ? buying
          ? 'Opening the checkout…'
          : 'Waiting for the payment provider to confirm the payment…'
        : payment.status === 'paid'
          ? `Payment received: ${payment.credits} credits added${payment.kind === 'subscription' ? ' and the plan changed' : ''}.`
          : `The payment was ${payment.status}; nothing was charged.`}
      {payment.status === 'pending' && !buying && payment.checkoutUrl !== undefined ? (
        <>
          {' '}
          <a href={payment.checkoutUrl}>Open the checkout again</a>
        </>
      ) : null}
    </p>
  )
}
