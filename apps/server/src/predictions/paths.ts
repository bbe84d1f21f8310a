// Where prediction jobs answer (the public catalogue is content's: `content/paths.ts`).

/** The panel's transformation calls. */
export const PANEL_TRANSFORMATION = '/service/panel/transformation/v1.0'
/** Prediction jobs of an organisation: `…/{orgId}/predictions/…`. */
export const PREDICTIONS_ORG_BASE = `${PANEL_TRANSFORMATION}/org`
