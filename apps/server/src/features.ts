// The services the features share, each built once at start (services.ts) and handed to the
// routes that use them (app.ts): one session check, one payment provider, one visitor allowance
// and captcha guard for the whole server, rather than a copy per route module.
import { createAuth } from './accounts/auth.ts'
import { createAssets } from './assets/upload.ts'
import { createPaymentProvider } from './billing/providers.ts'
import { createReturnSigner } from './billing/return-url.ts'
import { createSettlement } from './billing/settlement.ts'
import { createContactInbox } from './content/contact.ts'
import type { AppContext } from './context.ts'
import { createSignedUploads } from './pixelbin/signed-upload.ts'
import { createRateLimiter } from './platform/rate-limit.ts'
import { createVisitorAllowance } from './playground/allowance.ts'
import { createCaptchaGuard } from './playground/captcha.ts'
import { createPlaygroundSigner } from './playground/sign.ts'
import { createVisitorUploads } from './playground/visitor-uploads.ts'
import { createWebhookSender } from './webhooks/delivery.ts'

export type FeatureServices = ReturnType<typeof createFeatureServices>

/** Builds the features' shared services over the app's context. */
export function createFeatureServices(context: AppContext) {
  const auth = createAuth(context)
  const limiter = createRateLimiter(context.repo)
  const allowance = createVisitorAllowance(context)
  const captcha = createCaptchaGuard(context)
  const assets = createAssets(context, { auth })
  return {
    auth,
    limiter,
    /** The demo organisation's daily visitor allowances (delivery tells it of new AI renders). */
    allowance,
    assets,
    /** The payment provider, or undefined when payments are off. */
    payments: createPaymentProvider(context.config),
    settlement: createSettlement(context),
    returns: createReturnSigner(context.config),
    signer: createPlaygroundSigner(context, { allowance, captcha }),
    visitorUploads: createVisitorUploads(context, { assets, allowance, captcha }),
    contact: createContactInbox(context, {
      limiter,
      captcha: createCaptchaGuard(context, { action: 'contact' }),
    }),
    /** Signed upload URLs and the parts uploaded to them (decision 016). */
    signedUploads: createSignedUploads(context, { assets }),
    /** Sends webhook deliveries (the ping; the jobs send the rest). */
    webhookSender: createWebhookSender(context),
  }
}
