// Where the visitor calls of the website's playground and AI tool pages answer.
import { ORG_SEGMENT, PANEL_API_PATHS, PUBLIC_API_PATHS } from '@tessera/url'

/** The public playground calls (no session): `…/sign`. */
export const PUBLIC_PLAYGROUND = PUBLIC_API_PATHS.playground

/** A member's call (session or token of the organisation): `…/{orgId}/sign`. */
export const MEMBER_PLAYGROUND = `${PANEL_API_PATHS.playground}/${ORG_SEGMENT}`
