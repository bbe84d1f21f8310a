// Where custom domains answer: under the organisation for its members, and the TLS proxy's
// question on the public API.
import { PANEL_API_PATHS } from '@tessera/url'

/** `/{orgId}/domains…`, beside the organisation's other calls. */
export const DOMAINS_BASE = PANEL_API_PATHS.organization
/** `GET ?domain=<host>`: 200 when a certificate may be issued for it (Caddy's `ask`). */
export const TLS_ASK_PATH = '/service/public/domains/v1.0/tls-ask'
