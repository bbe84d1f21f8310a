// The OpenAPI description of an organisation's usage and its recent files (`usage-routes.ts`),
// merged into the files part by `openapi.ts`.
import {
  arrayOf,
  failure,
  int,
  type JsonSchema,
  json,
  type OpenApiPathItem,
  object,
  orgIdParam,
  pageNo,
  pageSize,
  ref,
} from '../http/openapi-kit.ts'
import { ASSET_API_BASE, RECENT_PAGE_SIZE } from './paths.ts'

const BASE = `${ASSET_API_BASE}/{orgId}`

const COMMON = {
  '400': failure('invalid_query, or a signature_* problem'),
  '401': failure('unauthenticated (no session) or invalid_token'),
  '404': failure('organisation_not_found: not an organisation of yours (or not an id at all)'),
}

export const USAGE_SCHEMAS: Record<string, JsonSchema> = {
  Usage: object({
    storage: object({
      files: int('Files stored, in every folder'),
      bytes: int('Bytes of the stored originals'),
    }),
    derivedCache: object({
      entries: int("Derived images of this organisation's files that are stored"),
      bytes: int('Their bytes'),
      budgetBytes: int(
        "DERIVED_CACHE_MAX_BYTES: the byte budget of every organisation's derived images on this server together (least recently used go first)",
      ),
    }),
    credits: object({ balance: int('Credits left') }),
  }),
  RecentFiles: object({ items: arrayOf(ref('AssetFile')), page: ref('Page') }),
}

export const USAGE_PATHS: Record<string, OpenApiPathItem> = {
  [`${BASE}/usage`]: {
    get: {
      operationId: 'getUsage',
      summary: 'Storage, derived-image cache and credits of the organisation, counted now',
      tags: ['files'],
      parameters: [orgIdParam],
      responses: { ...COMMON, '200': json(ref('Usage'), 'What the organisation uses') },
    },
  },
  [`${BASE}/recent-files`]: {
    get: {
      operationId: 'listRecentFiles',
      summary: 'Files in every folder, the most recently uploaded or changed first, paged',
      tags: ['files'],
      parameters: [orgIdParam, pageNo, pageSize(RECENT_PAGE_SIZE)],
      responses: {
        ...COMMON,
        '200': json(ref('RecentFiles'), 'One page of files'),
      },
    },
  },
}
