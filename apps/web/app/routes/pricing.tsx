import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { CheckIcon, MinusIcon } from '../components/icons.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { PageSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { usePageLocation } from '../components/use-page-location.ts'
import { serverApi } from '../lib/api.server.ts'
import {
  type Addon,
  type Feature,
  getAddons,
  getOrganizations,
  getPlans,
  type Plan,
} from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { billingUrl, signupToBuyUrl, signupUrl } from '../lib/links.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/pricing.ts'
import './pricing.css'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Pricing',
    description: 'Start free with credits; upgrade for more AI work and your own delivery domain.',
  })

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = serverApi(request, context)
  const [plans, addons] = await Promise.all([
    getPlans(api.client, api.config, api.log).catch(() => null),
    getAddons(api.client, api.config, api.log).catch(() => null),
  ])
  return { plans, addons }
}

// Formatters are made once per currency and precision: making one costs more than formatting.
const moneyFormats = new Map<string, Intl.NumberFormat>()
const COUNT = new Intl.NumberFormat('en-US')

function money(amount: number, currency = 'USD'): string {
  const digits = amount % 1 === 0 ? 0 : 2
  const key = `${currency}:${digits}`
  let format = moneyFormats.get(key)
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      maximumFractionDigits: digits,
    })
    // Currencies come from the plan list: a handful, but never let the map grow without bound.
    if (moneyFormats.size < 64) moneyFormats.set(key, format)
  }
  return format.format(amount)
}

function featureValue(feature: Feature) {
  if (feature.value === true)
    return <CheckIcon size={18} className="feature-yes" aria-label="Included" />
  if (feature.value === false)
    return <MinusIcon size={18} className="feature-no" aria-label="Not included" />
  const value = typeof feature.value === 'number' ? COUNT.format(feature.value) : feature.value
  return (
    <strong>
      {value}
      {feature.unit === undefined ? '' : ` ${feature.unit}`}
    </strong>
  )
}

/** The active organisation's id for a signed-in visitor (the first in the list, SPEC §6). */
function useActiveOrganization(): string | null {
  const config = useConfig()
  const session = useSession()
  const [orgId, setOrgId] = useState<string | null>(null)
  useEffect(() => {
    if (!session.isUserLoggedIn) {
      setOrgId(null)
      return
    }
    void getOrganizations(session.client, config).then((list) => setOrgId(list?.[0]?._id ?? null))
  }, [session.isUserLoggedIn, session.client, config])
  return orgId
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const config = useConfig()
  const page = usePageLocation()
  const [params, setParams] = useSearchParams()
  const yearly = params.get('interval') === 'yearly'
  const orgId = useActiveOrganization()
  const { plans, addons } = loaderData
  // The choice travels to the console's billing page, through sign-up for a visitor.
  const buy = (kind: 'subscription' | 'topup', itemId: number) =>
    orgId === null
      ? signupToBuyUrl(config.consoleUrl, kind, itemId)
      : billingUrl(config.consoleUrl, orgId, kind, itemId)
  const paid = plans === null ? [] : yearly ? plans.yearlyPlans : plans.monthlyPlans
  const shown: Plan[] =
    plans?.freePlan === null || plans === null ? paid : [plans.freePlan, ...paid]

  return (
    <>
      <PageHero
        flush
        eyebrow="Pricing"
        title="Simple plans that grow with your traffic"
        lead={`Start free with ${config.freePlanCredits} credits. Upgrade when you need more AI work or your own delivery domain.`}
      >
        <fieldset className="interval-toggle" aria-label="Billing interval">
          <legend className="visually-hidden">Billing interval</legend>
          <button
            type="button"
            aria-pressed={!yearly}
            data-testid="interval-monthly"
            onClick={() => setParams({}, { replace: true, preventScrollReset: true })}
          >
            Monthly
          </button>
          <button
            type="button"
            aria-pressed={yearly}
            data-testid="interval-yearly"
            onClick={() =>
              setParams({ interval: 'yearly' }, { replace: true, preventScrollReset: true })
            }
          >
            Yearly <span className="pill">2 months free</span>
          </button>
        </fieldset>
      </PageHero>
      <section className="section is-flush-top">
        <div className="container">
          {plans === null ? (
            <div className="form-alert is-error" role="alert">
              Plans could not be loaded right now. Refresh the page in a moment.
            </div>
          ) : (
            <div className="plan-grid" data-testid="plans">
              {shown.map((plan, index) => {
                const featured = index === Math.min(2, shown.length - 1) && shown.length > 2
                const isFree = plan._id === config.freePlanId
                return (
                  <article
                    key={plan._id}
                    className={`plan-card${featured ? ' is-featured' : ''}`}
                    data-testid="plan"
                  >
                    {featured ? <span className="pill plan-badge">Most popular</span> : null}
                    <h2>{plan.name}</h2>
                    <p className="plan-description">{plan.description}</p>
                    <p className="plan-price">
                      <span>{money(plan.amount, plan.currency)}</span>
                      <small>{isFree ? 'forever' : yearly ? '/ year' : '/ month'}</small>
                    </p>
                    <a
                      className={`button is-block ${featured ? 'is-primary' : 'is-secondary'}`}
                      href={
                        isFree ? signupUrl(config.consoleUrl, page) : buy('subscription', plan._id)
                      }
                    >
                      {isFree ? 'Start for free' : `Choose ${plan.name}`}
                    </a>
                    <ul className="plan-features">
                      {Object.entries(plan.features).map(([key, feature]) => (
                        <li key={key}>
                          <span>{feature.displayName ?? key}</span>
                          {featureValue(feature)}
                        </li>
                      ))}
                    </ul>
                  </article>
                )
              })}
            </div>
          )}
        </div>
      </section>
      <PageSection
        title="Need more credits?"
        lead="Top-ups add credits to any plan, on top of its own; credits do not expire."
        className="is-alt"
      >
        {addons === null || addons.length === 0 ? (
          <p className="text-center">Top-ups are not on sale right now.</p>
        ) : (
          <div className="grid cols-4" data-testid="addons">
            {addons.map((addon: Addon) => (
              <article key={addon._id} className="card addon-card">
                <h3>{addon.name}</h3>
                <p className="plan-price">
                  <span>{money(addon.amount, addon.currency)}</span>
                </p>
                <p>{addon.description}</p>
                <a className="button is-secondary is-small" href={buy('topup', addon._id)}>
                  Buy top-up
                </a>
              </article>
            ))}
          </div>
        )}
        <p className="text-center space-above-6">
          Questions about a large volume? <Link to="/contactus?topic=sales">Talk to sales</Link>.
        </p>
      </PageSection>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
