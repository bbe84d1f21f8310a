// Where the transformation context answers (Pixelbin's `getTransformationContext`).
import { PANEL_TRANSFORMATION } from '../predictions/paths.ts'

/** `GET …/context?url=<delivery URL or path>`. */
export const TRANSFORMATION_CONTEXT = `${PANEL_TRANSFORMATION}/context`

/** `GET …/preview?url=<delivery URL or path>`: the console's own previews, by session. */
export const TRANSFORMATION_PREVIEW = `${PANEL_TRANSFORMATION}/preview`
