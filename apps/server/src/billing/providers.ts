// The payment provider a server runs (PAYMENT_PROVIDER): the test checkout, Stripe, or none.
import type { ServerConfig } from '../config.ts'
import { createTestPaymentProvider, type PaymentProvider } from './payments.ts'
import { createStripePaymentProvider } from './stripe.ts'

/** The configured provider, or undefined when payments are off (`PAYMENT_PROVIDER=off`). */
export function createPaymentProvider(
  config: Pick<ServerConfig, 'paymentProvider' | 'publicUrl' | 'signing' | 'stripe'>,
): PaymentProvider | undefined {
  if (config.paymentProvider === 'stripe' && config.stripe !== undefined) {
    return createStripePaymentProvider(config.stripe, { publicUrl: config.publicUrl })
  }
  return config.paymentProvider === 'test' ? createTestPaymentProvider(config) : undefined
}
