// Where prediction jobs answer (the public catalogue is content's: `content/paths.ts`).
import { ORG_SEGMENT, PANEL_API_PATHS } from '@tessera/url'

/** The panel's transformation calls. */
export const PANEL_TRANSFORMATION = PANEL_API_PATHS.transformation
/** Prediction jobs of an organisation: `…/{orgId}/predictions/…`. */
export const PREDICTIONS_ORG_BASE = `${PANEL_TRANSFORMATION}/${ORG_SEGMENT}`
