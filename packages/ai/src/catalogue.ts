/** The catalogue operations this package runs. */
export const AI_OPERATIONS = [
  'erase.bg',
  'remove.bg',
  'sr.upscale',
  'wm.remove',
  'im.mask',
  'shadow.gen',
  'ocr.extract',
  'wmc.detect',
  'nsfw.detect',
  'od.detect',
  'oc.detect',
  'cos.detect',
  'imc.detect',
  'dbt.detect',
  'awsRek.detectLabels',
  'awsRek.moderation',
  'googleVis.detectLabels',
  'qr.scan',
  'qr.generate',
] as const

/** A key of `AI_OPERATIONS`. */
export type AiOperationKey = (typeof AI_OPERATIONS)[number]

/** Operations that only report (their result is data; the image passes on unchanged). */
export const DETECTIONS: ReadonlySet<string> = new Set([
  'ocr.extract',
  'wmc.detect',
  'nsfw.detect',
  'od.detect',
  'oc.detect',
  'cos.detect',
  'imc.detect',
  'dbt.detect',
  'awsRek.detectLabels',
  'awsRek.moderation',
  'googleVis.detectLabels',
  'qr.scan',
])

/**
 * Whether an AI step's result has transparency whatever its input: a cut-out (`erase.bg`,
 * `remove.bg`), and `shadow.gen` on a background colour that is not opaque (and no background
 * image). `params` are the step's parsed parameters (colours as hex text). The output format
 * of a chain holding one keeps alpha.
 */
export function makesTransparency(key: string, params: Readonly<Record<string, unknown>>): boolean {
  if (key === 'erase.bg' || key === 'remove.bg') return true
  if (key !== 'shadow.gen') return false
  const image = params.bgi
  if (typeof image === 'string' && image !== '') return false
  const colour = typeof params.bgc === 'string' ? params.bgc.replace(/^#/, '') : 'ffffff'
  return colour.length === 8 && colour.slice(6).toLowerCase() !== 'ff'
}

const GENERATIVE = 'it needs a generative image model, and no npm package ships one'
const VIDEO = 'video is not processed by this server'

/**
 * AI operations of the catalogue that nothing installable here can run, with the reason; they
 * answer 501 `model_unavailable` and are never charged.
 */
export const UNAVAILABLE: Readonly<Record<string, string>> = {
  'generate.bg': GENERATIVE,
  'bg.extend': GENERATIVE,
  'vg.generate': GENERATIVE,
  'vertexAi.generateBG': `${GENERATIVE} (Vertex AI is a Google service)`,
  'vertexAi.removeBG': 'Vertex AI is a Google service; use erase.bg',
  'vertexAi.upscale': 'Vertex AI is a Google service; use sr.upscale',
  'vsr.upscale': VIDEO,
  'wmv.remove': VIDEO,
  'vd.detect': 'no model for product wear and view types ships in an npm package',
  'pwr.remove': 'PDF files are not processed by this server',
  'numPlate.detect': 'no number-plate detector ships in an npm package',
  'pr.tag': 'no product-tagging model ships in an npm package',
  'cpv.detect': 'no product-visibility model ships in an npm package',
  'af.remove': 'no artefact-removal model ships in an npm package',
}

/** Whether this package runs the operation. */
export function isAiOperation(key: string): key is AiOperationKey {
  return (AI_OPERATIONS as readonly string[]).includes(key)
}
