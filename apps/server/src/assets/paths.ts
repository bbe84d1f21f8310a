// Where the asset calls answer and what their lists give by default: the routers, the OpenAPI
// part and the tests read these.
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'

/** Uploads and the download proxy: `…/upload/direct`, `…/upload/url`, `…/proxy/download`. */
export const ASSETS = PANEL_API_PATHS.assets
/** Files, folders and presets of an organisation: `…/{orgId}/…` (`{orgId}` is its `_id`). */
export const ASSET_API_BASE = `${ASSETS}/${ORG_SEGMENT}`

/** Items per page of the file and preset listings when the client gives none. */
export const ASSET_PAGE_SIZE = 20
