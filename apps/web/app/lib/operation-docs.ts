// What the API pages and the documentation site say about each operation of the catalogue: its
// documentation address (the SPEC §2.7 link targets among them), a working example pattern on a
// demo sample, and its parameters in words. Shared by `/api/plugin` and `/docs`.
import {
  CATALOGUE,
  isVideoFormat,
  type OperationSpec,
  type ParamSpec,
  type PluginSpec,
} from '@tessera/url'

/** The demo organisation's cloud name and the sample each example runs on. */
export const DEMO_CLOUD = 'demo'
export const DEMO_SAMPLE = 'samples/chelsea.png'

/** Samples of the formats some operations are limited to (`pdf.page` runs on a PDF). */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = { pdf: 'samples/tessera-guide.pdf' }

/** The demo sample an operation's example runs on: one of its format when it has one. */
export function exampleSample(operation: Pick<OperationSpec, 'formats'>): string {
  const format = operation.formats?.[0]
  return (format === undefined ? undefined : FORMAT_SAMPLES[format]) ?? DEMO_SAMPLE
}

// Tessera's own plugins that are no AI: documented beside the basic operations.
const BASIC_PLUGINS: ReadonlySet<string> = new Set(['t', 'pdf'])

/** `t` (basic) operations and `pdf.page` live under `basic`; every AI plugin under `ml`. */
export function categoryOf(pluginId: string): 'basic' | 'ml' {
  return BASIC_PLUGINS.has(pluginId) ? 'basic' : 'ml'
}

const kebab = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()

// Plugins whose documentation address is not their name in kebab case: the names the marketing
// pages link to (SPEC §2.7) and tidier names for a few long ones.
const PLUGIN_SLUGS: Record<string, string> = {
  erase: 'erase-bg',
  ic: 'intelligent-crop',
  wm: 'watermark-remover',
  awsRek: 'aws-rekognition',
  googleVis: 'google-vision',
  vertexAi: 'vertex-ai',
  vsr: 'video-upscaler',
  wmv: 'video-watermark-remover',
  ocr: 'text-detection-and-recognition',
  remove: 'remove-bg',
  shadow: 'soft-shadow-generator',
}

/** The page of one operation under the documentation base, e.g. `/transformations/ml/erase-bg`. */
export function operationDocPath(operation: Pick<OperationSpec, 'plugin' | 'method'>): string {
  const category = categoryOf(operation.plugin)
  if (category === 'basic') {
    const name =
      operation.plugin === 't' ? operation.method : `${operation.plugin}-${operation.method}`
    return `/transformations/basic/${kebab(name)}`
  }
  const plugin = CATALOGUE.getPlugin(operation.plugin)
  const base = PLUGIN_SLUGS[operation.plugin] ?? kebab(plugin?.name ?? operation.plugin)
  const single = (plugin?.operations.length ?? 1) === 1
  return `/transformations/ml/${single ? base : `${base}-${kebab(operation.method)}`}`
}

// Example parameters that show what an operation does on the demo sample (451 × 300 px). An
// operation missing here gets an example from its parameters (see exampleValues).
const EXAMPLES: Record<string, string> = {
  't.resize': 'w:300,h:200',
  'pdf.page': 'n:2,d:72',
  't.compress': 'q:40',
  't.extend': 't:20,l:20,b:20,r:20,bc:4f46e5',
  't.extract': 't:40,l:120,w:240,h:200',
  't.trim': 't:20',
  't.rotate': 'a:30,b:ffffff',
  't.sharpen': 's:3',
  't.median': 's:5',
  't.blur': 's:4',
  't.flatten': 'b:ffffff',
  't.linear': 'a:2,b:10',
  't.modulate': 'b:1.4,s:2,h:120',
  't.tint': 'c:4f46e5',
  't.toFormat': 'f:webp,q:70',
  't.density': 'd:72',
  // A colour canvas: `i` takes a file id or a path without folders, and the samples sit in one.
  't.merge': 'm:overlay,bg:4f46e580,w:200,h:120,g:southeast',
  'ic.crop': 'w:300,h:300,g:face',
  'erase.bg': 'i:general',
  'sr.upscale': 't:2x',
  'wm.remove': 'rem_text:true',
  // `i` is optional in Pixelbin's catalogue, but a QR code of nothing is refused: encode a text.
  'qr.generate': 'i:Tessera',
  'vid.frame': 't:1.5',
  'vid.trim': 's:1,d:2',
}

/** A value of the parameter's type that passes its checks, for an example URL. */
function exampleValue(param: ParamSpec): string | undefined {
  if (param.default !== null && param.default !== '') return String(param.default)
  switch (param.type) {
    case 'integer':
    case 'float':
      return String(param.min ?? 1)
    case 'enum':
      return param.enum?.[0]
    case 'color':
      return '000000'
    case 'boolean':
      return 'true'
    case 'bbox':
      return '0_0_100_100'
    default:
      return undefined
  }
}

/** The example's parameters: the curated ones, else each required parameter with a value. */
export function exampleValues(operation: OperationSpec): string {
  const curated = EXAMPLES[operation.key]
  if (curated !== undefined) return curated
  return operation.params
    .filter((param) => param.required)
    .map((param) => `${param.id}:${exampleValue(param) ?? ''}`)
    .join(',')
}

/** `plugin.method(values)` as written in a delivery URL. */
export function examplePattern(operation: OperationSpec): string {
  return `${operation.key}(${exampleValues(operation)})`
}

/**
 * A delivery URL of the example on the demo sample, on `deliveryBase` (empty: this origin). A
 * video-only operation's example names your organisation and video (the demo holds none).
 */
export function exampleUrl(operation: OperationSpec, deliveryBase: string): string {
  const base = deliveryBase.replace(/\/+$/, '')
  if (isVideoOnly(operation)) {
    return `${base}/v2/{cloudName}/${examplePattern(operation)}/{your-video}.mp4`
  }
  return `${base}/v2/${DEMO_CLOUD}/${examplePattern(operation)}/${exampleSample(operation)}`
}

/** The sample untouched, to compare with (a PDF sample: its first page, as an image). */
export function originalUrl(deliveryBase: string, sample = DEMO_SAMPLE): string {
  const pattern = sample.endsWith('.pdf') ? 'pdf.page(d:72)' : 'original'
  return `${deliveryBase.replace(/\/+$/, '')}/v2/${DEMO_CLOUD}/${pattern}/${sample}`
}

/** The playground with a delivery URL loaded (`/playground?url=…`). */
export function playgroundLink(url: string): string {
  return `/playground?url=${encodeURIComponent(url)}`
}

/** A parameter as the API and documentation pages show it. */
export interface ParamDoc {
  key: string
  name: string
  title: string
  type: string
  default: string
  required: boolean
  /** `0 to 12000`, `from 1`, `up to 100`, or empty. */
  range: string
  enum: readonly string[]
}

export function paramDoc(param: ParamSpec): ParamDoc {
  const range =
    param.min !== undefined && param.max !== undefined
      ? `${param.min} to ${param.max}`
      : param.min !== undefined
        ? `from ${param.min}`
        : param.max !== undefined
          ? `up to ${param.max}`
          : ''
  return {
    key: param.id,
    name: param.name,
    title: param.title,
    type: param.type,
    default: param.default === null || param.default === '' ? '' : String(param.default),
    required: param.required,
    range,
    enum: param.enum ?? [],
  }
}

/** Whether an operation takes video files only (every format it takes is a video's). */
export function isVideoOnly(operation: Pick<OperationSpec, 'formats'>): boolean {
  return operation.formats?.every(isVideoFormat) === true
}

/** Everything a page about one operation shows. */
export interface OperationDoc {
  key: string
  plugin: string
  pluginName: string
  method: string
  displayName: string
  description: string
  runnable: boolean
  slow: boolean
  /**
   * The operation takes video files only (`vid.*`, a Tessera extension): the demo holds no
   * video, so its pages show no live example on the image sample.
   */
  videoOnly: boolean
  docPath: string
  pattern: string
  /** The demo file the example runs on (`samples/chelsea.png`). */
  sample: string
  params: ParamDoc[]
}

export function operationDoc(plugin: PluginSpec, operation: OperationSpec): OperationDoc {
  return {
    key: operation.key,
    plugin: plugin.id,
    pluginName: plugin.name,
    method: operation.method,
    displayName: operation.displayName,
    description: operation.description,
    runnable: operation.runnable,
    slow: operation.slow,
    videoOnly: isVideoOnly(operation),
    docPath: operationDocPath(operation),
    pattern: examplePattern(operation),
    sample: exampleSample(operation),
    params: operation.params.map(paramDoc),
  }
}

/** Every operation of the catalogue, basic first, by documentation address. */
export function allOperationDocs(): OperationDoc[] {
  return CATALOGUE.plugins.flatMap((plugin) =>
    plugin.operations.map((operation) => operationDoc(plugin, operation)),
  )
}

/** The operation documented at `path` (`/transformations/ml/erase-bg`), if any. */
export function operationAtDocPath(path: string): OperationDoc | undefined {
  const wanted = path.replace(/\/+$/, '')
  return allOperationDocs().find((doc) => doc.docPath === wanted)
}
