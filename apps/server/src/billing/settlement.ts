// Settling payments: the one way a payment is completed, for provider webhooks and the test
// checkout page alike. Idempotent: a payment settles once, its credits are granted once.
import { createActivityLog, SYSTEM_ACTOR } from '../activity/activity.ts'
import type { AppContext } from '../context.ts'
import type { Payment } from '../db/schema.ts'
import { HttpError } from '../http/errors.ts'
import { billingMail } from '../mail/templates.ts'
import type { PaymentEvent } from './payments.ts'

export type Settlement = ReturnType<typeof createSettlement>

export function createSettlement(app: Pick<AppContext, 'repo' | 'logger' | 'config' | 'mail'>) {
  const { repo, logger, config, mail } = app
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
   * Tells the organisation's owners that a payment went through (issue 24: important billing
   * events by e-mail), with a link to its receipt in the console. Sent after the settlement; a
   * mail that cannot be sent is logged, never fails the payment.
   */
  async function mailOwners(payment: Payment, item: string) {
    const base = config.web.consoleUrl
    const consoleUrl = /^https?:\/\//.test(base) ? base : `${config.publicUrl}${base}`
    const owners = (await repo.listMembers(payment.organisationId)).filter(
      (member) => member.role === 'owner',
    )
    const amount = `${payment.amount.toFixed(2)} ${payment.currency.toUpperCase()}`
    for (const owner of owners) {
      await mail
        .send(
          billingMail({
            to: owner.user.email,
            subject: `Payment received: ${item}`,
            lines: [
              `We received your payment of ${amount} for ${item}.`,
              payment.credits > 0
                ? `${payment.credits} credits were added to your organisation.`
                : '',
              'Its receipt is in the console under Billing.',
            ].filter((line) => line !== ''),
            link: {
              label: 'Open billing',
              url: `${consoleUrl}/organization/${payment.organisationId}/billing`,
            },
          }),
        )
        .catch((error: unknown) => {
          logger.error({ err: error, paymentId: payment.id }, 'payment mail could not be sent')
        })
    }
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
      const item = await itemName(payment)
      await activity.record(payment.organisationId, SYSTEM_ACTOR, {
        kind: 'payment.settled',
        target: item,
        details: { paymentId: payment.id, status: payment.status, credits: payment.credits },
      })
      if (payment.status === 'paid') {
        // After the answer: a provider's webhook does not wait for the mail server.
        void mailOwners(payment, item).catch((error: unknown) => {
          logger.error({ err: error, paymentId: payment.id }, 'payment mail could not be sent')
        })
      }
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
