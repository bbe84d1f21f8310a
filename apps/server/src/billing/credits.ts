// Spending credits (SPEC §3): AI operations, in delivery (slow operations) and as prediction
// jobs, take credits from the organisation's balance; a spend the balance cannot cover is 402.
import type { ParsedOperation } from '@tessera/url'
import type { AppContext } from '../context.ts'
import type { CreditChange } from '../db/billing-queries.ts'
import { HttpError } from '../http/errors.ts'

/** Credits one AI operation costs (a slow catalogue operation in delivery, or one prediction). */
export const CREDITS_PER_AI_OPERATION = 1

/** The credits a chain of operations costs: one per AI (slow) operation. */
export function aiCreditsOf(operations: readonly ParsedOperation[]): number {
  return (
    operations.filter((operation) => operation.spec?.slow === true).length *
    CREDITS_PER_AI_OPERATION
  )
}

/** The 402 of a spend the balance cannot cover. */
export function insufficientCredits(change: { balance: number; needed: number }): HttpError {
  return new HttpError(
    402,
    'insufficient_credits',
    `This needs ${change.needed} credit${change.needed === 1 ? '' : 's'} and the organisation has ${change.balance}: buy a top-up or a subscription`,
  )
}

/**
 * Takes `credits` from the organisation for `reason` and `reference`, once: a second charge
 * with the same reference costs nothing.
 *
 * @throws {HttpError} 402 `insufficient_credits` when the balance is too low (nothing taken).
 */
export async function chargeCredits(
  repo: AppContext['repo'],
  organisationId: string,
  credits: number,
  reason: string,
  reference: string,
): Promise<CreditChange> {
  const change = await repo.spendCredits(organisationId, credits, reason, reference)
  if (change.status === 'insufficient') throw insufficientCredits(change)
  return change
}
