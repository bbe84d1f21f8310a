// Settling payments: the one way a payment is completed, for provider webhooks and the test
// checkout page alike. Idempotent: a payment settles once, its credits are granted once.
import { createActivityLog, SYSTEM_ACTOR } from '../activity/activity.ts'
import type { AppContext } from '../context.ts'
import type { Payment } from '../db/schema.ts'
import { HttpError } from '../http/errors.ts'
import type { PaymentEvent } from './payments.ts'

export type Settlement = ReturnType<typeof createSettlement>

export function createSettlement(app: Pick<AppContext, 'repo' | 'logger' | 'config'>) {
  const { repo, logger } = app
  const activity = createActivityLog(app)

  /** The name of what `payment` buys (the plan or addon), or `#id` when it is gone. */
  async function itemName(payment: Payment): Promise<string> {
    const item =
      payment.kind === 'subscription'
        ? await repo.findActivePlan(payment.itemId)
        : await repo.findActiveAddon(payment.itemId)
    return item?.name ?? `#${payment.itemId}`
  }

  /**
   * Applies a provider's event.
   *
   * @throws {HttpError} 404 `payment_not_found` when no checkout has the event's reference.
   */
  async function settle(providerName: string, event: PaymentEvent) {
    const settled = await repo.settlePayment(providerName, event.providerRef, event.outcome)
    if (settled === undefined) {
      throw new HttpError(404, 'payment_not_found', 'No checkout has this reference')
    }
    const { payment, changed } = settled
    if (changed) {
      logger.info(
        {
          paymentId: payment.id,
          organisationId: payment.organisationId,
          status: payment.status,
        },
        'payment settled',
      )
      await activity.record(payment.organisationId, SYSTEM_ACTOR, {
        kind: 'payment.settled',
        target: await itemName(payment),
        details: { paymentId: payment.id, status: payment.status, credits: payment.credits },
      })
    } else if (payment.status !== event.outcome) {
      // A provider saying "paid" for a checkout settled otherwise needs a person to look at it.
      logger.warn(
        {
          paymentId: payment.id,
          status: payment.status,
          outcome: event.outcome,
        },
        'payment event for a settled checkout ignored',
      )
    }
    return settled
  }

  return { itemName, settle }
}
