/** Separator between operations in a pattern (SPEC §9). */
export const OPERATION_SEPARATOR = '~'
/** Separator between parameters of one operation. */
export const PARAMETER_SEPARATOR = ','
/** Separator between a parameter and its value. */
export const KEY_VALUE_SEPARATOR = ':'
/** Separator between the items of a list value (`[[1_2_3_4]_[5_6_7_8]]`). */
export const LIST_SEPARATOR = '_'

/** Most operations one delivery URL may chain; a preset counts as each of its operations. */
export const MAX_TRANSFORMATIONS = 15
/** Inclusive range of the `dpr` option. */
export const DPR_RANGE = { min: 0.1, max: 5 } as const
/** Length of an asset short code and of a zone slug. */
export const SLUG_LENGTH = 6
/** Version written when building a URL. */
export const DEFAULT_VERSION = 'v2'
/** Version assumed when a parsed URL has none. */
export const IMPLICIT_VERSION = 'v1'
/** Pattern word for a URL without transformations. */
export const ORIGINAL_PATTERN = 'original'
/** Pattern word for a URL-translation-worker URL. */
export const WORKER_PATTERN = 'wrkr'
/** Plugin id of presets (`p:name`, `p.apply(n:name)`). */
export const PRESET_PLUGIN = 'p'

/** The parameter types of the language (SPEC §5). */
export const PARAM_TYPES = [
  'integer',
  'float',
  'string',
  'color',
  'enum',
  'boolean',
  'file',
  'bbox',
  'bboxList',
  'polygonList',
] as const

/** Image formats (SPEC §9). */
export const IMAGE_FORMATS = [
  'webp',
  'jpg',
  'jpeg',
  'png',
  'heif',
  'avif',
  'svg',
  'gif',
  'ico',
  'bmp',
  'tiff',
  'tif',
  'heic',
] as const
/** Audio formats (SPEC §9). */
export const AUDIO_FORMATS = ['mp3', 'aac', 'ogg', 'wma'] as const
/** Video formats (SPEC §9). */
export const VIDEO_FORMATS = ['mp4', 'mov', 'mkv', 'webm'] as const
/** Raw (non-media) formats (SPEC §9: "pdf, zip, txt, json, csv, html, doc and similar"). */
export const RAW_FORMATS = [
  'pdf',
  'zip',
  'txt',
  'json',
  'csv',
  'html',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'xml',
  'rtf',
] as const
/** Formats `f_auto` may choose between by the Accept header. */
export const CONTENT_NEGOTIATION_FORMATS = ['webp', 'jpeg', 'png', 'jpg', 'avif'] as const
/** Formats a transformation may be applied to. */
export const TRANSFORMABLE_FORMATS = [
  ...IMAGE_FORMATS,
  'pdf',
  'txt',
  ...VIDEO_FORMATS,
  'avi',
  'mpg',
  'mpeg',
] as const
/** Content type of a file whose type is unknown. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream'
/** Format of a file whose format is unknown. */
export const DEFAULT_FORMAT = 'bin'

/** Returns true when `format` (lower-case, no dot) can be transformed. */
export function isTransformableFormat(format: string): boolean {
  return (TRANSFORMABLE_FORMATS as readonly string[]).includes(format.toLowerCase())
}

const IMAGE_FORMAT_SET: ReadonlySet<string> = new Set(IMAGE_FORMATS)
const VIDEO_FORMAT_SET: ReadonlySet<string> = new Set([...VIDEO_FORMATS, 'avi', 'mpg', 'mpeg'])

/**
 * Whether a file format (as stored: lower case) is a video this service transforms: mp4, mov,
 * mkv, webm, avi, mpg/mpeg (SPEC §9). Videos are delivered inline, with ranges.
 */
export function isVideoFormat(format: string): boolean {
  return VIDEO_FORMAT_SET.has(format)
}

/**
 * Whether a file format (as stored: lower case, e.g. `png`, `jpeg`) is an image format of SPEC §9,
 * delivered inline; anything else is a raw file, delivered as an attachment.
 */
export function isImageFormat(format: string): boolean {
  return IMAGE_FORMAT_SET.has(format)
}
