// Plans and addons live in the content files and are copied into the database at every start,
// so billing code (subscriptions, top-ups) can reference them by id. Running it again with the
// same files changes nothing.
import type { AddonContent, Content, PlanContent } from '../content/content.ts'
import type { BillingItemInput, PlanInput, Repository } from '../db/index.ts'

function billingRow(item: PlanContent | AddonContent): BillingItemInput {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    amount: item.amount,
    currency: item.currency,
    credits: item.credits ?? 0,
    features: Object.entries(item.features).map(([name, feature]) => ({
      name,
      displayName: feature.displayName,
      value: feature.value,
      ...(feature.unit === undefined ? {} : { unit: feature.unit }),
      ...(feature.description === undefined ? {} : { description: feature.description }),
    })),
    tags: item.tags,
    custom: item.custom,
    active: item.active,
    sort: item.sort,
  }
}

/** Upserts the plans and addons of `content` by id. */
export async function seedBilling(
  repo: Pick<Repository, 'upsertPlans' | 'upsertAddons'>,
  content: Pick<Content, 'plans' | 'addons'>,
): Promise<void> {
  await repo.upsertPlans(
    content.plans.map((plan): PlanInput => ({ ...billingRow(plan), interval: plan.interval })),
  )
  await repo.upsertAddons(content.addons.map(billingRow))
}
