// The billing page's cards: a plan (the current one marked, the chosen one focused) and a top-up,
// each with its buy button.
import type { Ref } from 'react'
import type { Addon, Plan } from '../../../lib/api.ts'
import type { Purchase } from './use-payment.ts'

export function money(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)
}

interface CardProps {
  /** Chosen on the pricing page (in the address): the primary button, focused. */
  isChosen: boolean
  chosenRef: Ref<HTMLButtonElement>
  canBuy: boolean
  /** The plan or add-on being bought, if any: every button waits. */
  buying: number | null
  buy: (body: Purchase) => void
}

export function PlanCard({
  plan,
  isCurrent,
  isFree,
  isChosen,
  chosenRef,
  canBuy,
  buying,
  buy,
}: CardProps & { plan: Plan; isCurrent: boolean; isFree: boolean }) {
  return (
    <li
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
      {isFree ? null : (
        <button
          type="button"
          ref={isChosen ? chosenRef : undefined}
          className={`button ${isChosen ? 'is-primary' : 'is-secondary'} is-block`}
          disabled={isCurrent || !canBuy || buying !== null}
          onClick={() => buy({ kind: 'subscription', planId: plan._id })}
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

export function AddonCard({
  addon,
  isChosen,
  chosenRef,
  canBuy,
  buying,
  buy,
}: CardProps & { addon: Addon }) {
  return (
    <li className={`card plan-card${isChosen ? ' is-chosen' : ''}`} data-testid="addon-card">
      <h3>{addon.name}</h3>
      <p className="plan-price">{money(addon.amount, addon.currency)}</p>
      <p>{addon.description}</p>
      <button
        type="button"
        ref={isChosen ? chosenRef : undefined}
        className={`button ${isChosen ? 'is-primary' : 'is-secondary'} is-block`}
        disabled={!canBuy || buying !== null}
        onClick={() => buy({ kind: 'topup', addonId: addon._id })}
        data-testid={`buy-addon-${addon._id}`}
      >
        {buying === addon._id ? 'Opening checkout…' : `Buy ${addon.name}`}
      </button>
    </li>
  )
}
