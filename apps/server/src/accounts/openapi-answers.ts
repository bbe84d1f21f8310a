// Answers most of an organisation's calls share, declared once for the accounts parts.
import { failure, orgCalls } from '../http/openapi-kit.ts'
import { ORGANIZATION } from './paths.ts'

/** A body or signature the call refuses. */
export const BAD_REQUEST = {
  '400': failure('invalid_json, invalid_body, or a signature_* problem (see Request signing)'),
}
/** A call only owners may make. */
export const OWNERS_ONLY = {
  '403': failure('forbidden: only owners (and never API tokens) may do this'),
}
/** Another organisation's id, or none at all. */
export const NOT_YOURS = {
  '404': failure('organisation_not_found: not an organisation of yours (or an unknown id)'),
}
/** A call any member may make: its body, and the organisation. */
export const OF_ANY_ROLE = { ...BAD_REQUEST, ...NOT_YOURS }
/** A call only owners may make: its body, the role, and the organisation. */
export const OF_OWNERS = { ...BAD_REQUEST, ...OWNERS_ONLY, ...NOT_YOURS }
/** Done, with nothing to answer. */
export const DONE = { description: 'Done' }

/** The organisation's own calls any member may make, and those only owners may. */
export const organisations = orgCalls(ORGANIZATION, 'organisations', OF_ANY_ROLE)
export const owners = orgCalls(ORGANIZATION, 'organisations', OF_OWNERS)
