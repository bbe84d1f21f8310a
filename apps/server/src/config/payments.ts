// Which payment provider runs when none is chosen, and the start-up line that says so (issue 19,
// finding 15): the test checkout gives credits without money, so only a local server gets it.
import type { ServerConfig } from './server-config.ts'

/** Whether `url` names this machine only (loopback, `localhost`, `*.localhost`). */
export function isLocalUrl(url: string): boolean {
  let hostname: string
  try {
    hostname = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '')
  } catch {
    return false
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '::1'
  )
}

/**
 * The payment provider when `PAYMENT_PROVIDER` is not set: the test checkout (credits without
 * money) only on a local server; on a public URL anyone could give themselves credits, so `off`.
 */
export function defaultPaymentProvider(publicUrl: string): 'test' | 'off' {
  return isLocalUrl(publicUrl) ? 'test' : 'off'
}

/** The start-up line saying which payment provider runs and why. */
export function paymentProviderNote(
  config: Pick<ServerConfig, 'paymentProvider' | 'publicUrl'>,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const chosen = (env.PAYMENT_PROVIDER ?? '').trim() !== ''
  if (chosen) return `payments: ${config.paymentProvider} (PAYMENT_PROVIDER)`
  return config.paymentProvider === 'test'
    ? `payments: test checkout, no money moves (PAYMENT_PROVIDER unset and ${config.publicUrl} is local)`
    : `payments: off (PAYMENT_PROVIDER unset and ${config.publicUrl} is not local; set PAYMENT_PROVIDER=test to try checkouts anyway)`
}
