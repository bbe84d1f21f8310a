// The receipt of a paid payment (issue 24, invoices): a self-contained HTML document the owner
// opens in the browser or downloads (the same page as an attachment). Numbered from
// `receipt_numbers` in the order payments were paid; no script, no outside resources.
import type { Payment } from '../db/schema.ts'

const escapeHtml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)

/** A receipt number as printed: `R-000042`. */
export function receiptLabel(receiptNumber: number): string {
  return `R-${String(receiptNumber).padStart(6, '0')}`
}

/** The file name of a downloaded receipt. */
export function receiptFileName(receiptNumber: number): string {
  return `tessera-receipt-${receiptLabel(receiptNumber)}.html`
}

/** The headers of a receipt: HTML, private, nothing loaded from anywhere. */
export function receiptHeaders(download: string | undefined): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'private, no-store',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(download === undefined
      ? {}
      : { 'content-disposition': `attachment; filename="${download}"` }),
  }
}

export interface ReceiptParts {
  payment: Payment & { receiptNumber: number; completedAt: Date }
  organisation: { name: string; cloudName: string }
  itemName: string
}

/** The receipt page of a paid payment. */
export function receiptPage({ payment, organisation, itemName }: ReceiptParts): string {
  const label = receiptLabel(payment.receiptNumber)
  const amount = `${payment.amount.toFixed(2)} ${payment.currency}`
  const what =
    payment.kind === 'subscription' ? `Subscription: ${itemName}` : `Credit top-up: ${itemName}`
  const date = payment.completedAt.toISOString().slice(0, 10)
  const row = (name: string, value: string) =>
    `<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Receipt ${label} · Tessera</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#27272a}table{border-collapse:collapse;width:100%;margin:1.5rem 0}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #e4e4e7}th{width:40%;color:#52525b;font-weight:500}.total td{font-weight:700}.note{color:#71717a;font-size:.875rem}</style>
</head><body>
<h1>Receipt ${label}</h1>
<p>Tessera · paid on ${date}</p>
<table>
${row('Receipt number', label)}
${row('Date paid', date)}
${row('Billed to', `${organisation.name} (${organisation.cloudName})`)}
${row('Item', what)}
${row('Credits', String(payment.credits))}
${row('Payment', `${payment.id} (${payment.provider}${payment.provider === 'test' ? ', test mode: no money moved' : ''})`)}
<tr class="total"><th scope="row">Amount paid</th><td>${escapeHtml(amount)}</td></tr>
</table>
<p class="note">Kept with the organisation's payments; open it again from Billing in the console.</p>
</body></html>`
}
