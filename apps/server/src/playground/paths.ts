// Where the visitor calls of the website's playground and AI tool pages answer.

/** The public playground calls (no session): `…/sign`. */
export const PUBLIC_PLAYGROUND = '/service/public/playground/v1.0'

/** A member's call (session or token of the organisation): `…/{orgId}/sign`. */
export const MEMBER_PLAYGROUND = '/service/panel/playground/v1.0/org'
