// Where billing answers: the base paths the router is mounted under, the OpenAPI part and the
// tests name. The public plan and addon lists share the panel billing base.
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'

/** Plans and addons (public), and under `/org/{orgId}` an organisation's credits and payments. */
export const BILLING = PANEL_API_PATHS.billing
/** An organisation's credits, ledger, checkouts and payments: `…/org/{orgId}/…`. */
export const BILLING_ORG_BASE = `${BILLING}/${ORG_SEGMENT}`
/** The payment providers' webhooks: `…/{provider}`. */
export const PAYMENT_WEBHOOK_BASE = '/service/webhooks/payments'
/** Where the test provider's checkout pages live: `…/{ref}`. */
export const TEST_CHECKOUT_PATH = '/service/payments/v1.0/test-checkout'

/** Page size of plans and addons when the client gives none: small, so clients must page. */
export const BILLING_PAGE_SIZE = 3
/** Page size of an organisation's credit ledger when the client gives none. */
export const LEDGER_PAGE_SIZE = 20
