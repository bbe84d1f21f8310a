// The test payment provider's hosted checkout page (PAYMENT_PROVIDER=test): a plain HTML page
// that pays or cancels a checkout the way a provider's webhook would. No script, no outside
// resources: its headers allow none.
import type { Payment } from '../db/schema.ts'
import { returnWith } from './return-url.ts'

const escapeHtml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * The headers of every checkout page answer. The pay and cancel forms may be sent on to the
 * console (`returnOrigin`, when it is another origin): `form-action` covers redirects too.
 */
export function checkoutPageHeaders(returnOrigin?: string): Record<string, string> {
  const formAction = returnOrigin === undefined ? "'self'" : `'self' ${returnOrigin}`
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  }
}

/**
 * The page of `payment` for the item named `itemName`, with an optional notice on top; `back` is
 * the console page it returns to (and the query that carries it to the pay and cancel posts).
 */
export function checkoutPage(
  payment: Payment,
  itemName: string,
  options: { notice?: string; back?: { url: URL; query: string } | undefined } = {},
): string {
  const { notice, back } = options
  const query = back === undefined ? '' : escapeHtml(back.query)
  const price = `${payment.amount.toFixed(2)} ${payment.currency}`
  const what =
    payment.kind === 'subscription'
      ? // The test provider does not renew: one payment is one period (Stripe renews).
        `Subscription to ${itemName}: ${payment.credits} credits for one period (test mode does not renew)`
      : `Top-up ${itemName}: ${payment.credits} credits`
  const actions =
    payment.status === 'pending'
      ? `<form method="post" action="${payment.providerRef}/pay${query}"><button type="submit">Pay ${escapeHtml(price)} (test)</button></form>
<form method="post" action="${payment.providerRef}/cancel${query}"><button type="submit">Cancel</button></form>`
      : `<p><strong>This checkout is ${payment.status}.</strong>${payment.status === 'paid' ? ` ${payment.credits} credits were added.` : ''} ${back === undefined ? 'You can close this page.' : `<a href="${escapeHtml(returnWith(back.url, payment.id, payment.status))}">Back to the console</a>`}</p>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Test checkout</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#27272a}form{display:inline-block;margin-right:.5rem}button{height:40px;padding:0 1rem;font-size:1rem}.note{color:#71717a}</style>
</head><body>
<h1>Test checkout</h1>
<p class="note">Test mode: no money moves. Paying here settles the payment the way a provider's webhook would.</p>
${notice === undefined ? '' : `<p><strong>${escapeHtml(notice)}</strong></p>`}
<p>${escapeHtml(what)}</p>
<p>Price: ${escapeHtml(price)}</p>
${actions}
</body></html>`
}
