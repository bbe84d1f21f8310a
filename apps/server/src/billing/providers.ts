// The payment provider a server runs (PAYMENT_PROVIDER): the test checkout, Stripe, or none.
import type { ServerConfig } from '../config.ts'
import { createTestPaymentProvider, type PaymentProvider } from './payments.ts'

type StripeSettings = NonNullable<ServerConfig['stripe']>

/**
 * Stripe's provider, its library loaded on first use: the `stripe` package is ~4 MB of V8's
 * heap, which every full collection walks, in every server that does not take payments too.
 */
function lazyStripe(settings: StripeSettings, publicUrl: string): PaymentProvider {
  let loading: Promise<PaymentProvider> | undefined
  const provider = (): Promise<PaymentProvider> => {
    loading ??= import('./stripe.ts').then(
      (stripe) => stripe.createStripePaymentProvider(settings, { publicUrl }),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  return {
    name: 'stripe',
    createCheckout: async (request) => (await provider()).createCheckout(request),
    // As Stripe's own provider: an open session's URL needs a call.
    checkoutUrl: () => undefined,
    verifyWebhook: async (request) => (await provider()).verifyWebhook(request),
    async cancelAtPeriodEnd(providerSubscriptionId, cancel) {
      await (await provider()).cancelAtPeriodEnd?.(providerSubscriptionId, cancel)
    },
    async openPortal(customerId, returnUrl) {
      const loaded = await provider()
      if (loaded.openPortal === undefined) throw new Error('Stripe has no customer portal here')
      return await loaded.openPortal(customerId, returnUrl)
    },
  }
}

/** The configured provider, or undefined when payments are off (`PAYMENT_PROVIDER=off`). */
export function createPaymentProvider(
  config: Pick<ServerConfig, 'paymentProvider' | 'publicUrl' | 'signing' | 'stripe'>,
): PaymentProvider | undefined {
  if (config.paymentProvider === 'stripe' && config.stripe !== undefined) {
    return lazyStripe(config.stripe, config.publicUrl)
  }
  return config.paymentProvider === 'test' ? createTestPaymentProvider(config) : undefined
}
