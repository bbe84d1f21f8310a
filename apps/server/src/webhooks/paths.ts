// Where an organisation's webhooks answer: `…/org/{orgId}/webhooks…` under the organisation API.
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'
import type { OrgAccess } from '../http/openapi-kit.ts'

export const WEBHOOKS_ORG_BASE = `${PANEL_API_PATHS.organization}/${ORG_SEGMENT}`
/** Deliveries per page of the log when the client gives none. */
export const DELIVERY_PAGE_SIZE = 20
/** Endpoints an organisation may register. */
export const MAX_WEBHOOKS_PER_ORGANISATION = 20

/** Who may see an organisation's webhooks and their log, and who may change or ping them. */
export const WEBHOOK_READ: OrgAccess = { role: 'member' }
export const WEBHOOK_MANAGE: OrgAccess = { role: 'admin', tokens: true }
