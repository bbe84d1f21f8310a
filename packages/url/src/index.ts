// The public API of @tessera/url: every export here is intentional.
export { ORG_SEGMENT, PANEL_API_PATHS, PANEL_API_PREFIX, PUBLIC_API_PATHS } from './api-paths.ts'
export { BYTE_UNITS, BYTES_PER_MB, bytesToMb, formatBytes } from './bytes.ts'
export {
  CATALOGUE,
  type Catalogue,
  createCatalogue,
  type OperationSpec,
  type ParamSpec,
  type ParamType,
  type PluginSpec,
} from './catalogue.ts'
export { parseColor, rgbToHex } from './color.ts'
export {
  AUDIO_FORMATS,
  CONTENT_NEGOTIATION_FORMATS,
  DEFAULT_CONTENT_TYPE,
  DEFAULT_FORMAT,
  DEFAULT_VERSION,
  DPR_RANGE,
  IMAGE_FORMATS,
  IMPLICIT_VERSION,
  isImageFormat,
  isTransformableFormat,
  isVideoFormat,
  KEY_VALUE_SEPARATOR,
  LIST_SEPARATOR,
  MAX_TRANSFORMATIONS,
  OPERATION_SEPARATOR,
  ORIGINAL_PATTERN,
  PARAM_TYPES,
  PARAMETER_SEPARATOR,
  PRESET_PLUGIN,
  RAW_FORMATS,
  SLUG_LENGTH,
  TRANSFORMABLE_FORMATS,
  VIDEO_FORMATS,
  WORKER_PATTERN,
} from './constants.ts'
export {
  DEFAULT_BASE_URL,
  type DeliveryPath,
  objToUrl,
  type ParseUrlOptions,
  parseDeliveryPath,
  type UrlObject,
  type UrlObjectInput,
  type UrlVersion,
  urlToObj,
} from './delivery-url.ts'
export {
  IllegalArgumentError,
  IllegalArgumentError as PDKIllegalArgumentError,
  IllegalQueryParameterError,
  IllegalQueryParameterError as PDKIllegalQueryParameterError,
  InvalidUrlError,
  InvalidUrlError as PDKInvalidUrlError,
  isUrlError,
  MESSAGES,
  TransformationError,
  TransformationError as PDKTransformationError,
  UrlError,
  type UrlErrorCode,
} from './errors.ts'
export {
  canAddTransformation,
  checkTransformationLimit,
  countItemOperations,
  countOperations,
  isAssetSlug,
  type TransformationListItem,
} from './limits.ts'
export {
  buildQueryOptions,
  parseDpr,
  parseFAuto,
  parseQueryOptions,
  QUERY_OPTION_KEYS,
  type UrlOptions,
  type UrlOptionsInput,
} from './options.ts'
export {
  type ParsedOperation,
  type ParsePatternOptions,
  type PatternIssue,
  type PatternResult,
  parsePattern,
} from './parse-pattern.ts'
export {
  buildPattern,
  type OperationSyntax,
  parseOperationSyntax,
  parseTransformations,
  splitOperations,
  type Transformation,
  type TransformationInput,
  type TransformationValue,
  type TransformationValueInput,
} from './pattern.ts'
export {
  expandPresets,
  type PresetDefinition,
  type PresetLookup,
  type PresetVariable,
} from './presets.ts'
export { type ByteRange, parseRange } from './range.ts'
export {
  formatSigningTime,
  REQUEST_SIGNATURE_HEADERS,
  type RequestSignature,
  type RequestSignatureCheck,
  type SignableRequest,
  signRequest,
  type VerifyRequestOptions,
  verifyRequestSignature,
} from './request-signing.ts'
export {
  MAX_SIGNED_URL_LIFETIME_S,
  SIGNATURE_PARAMS,
  type SignatureCheck,
  type SignUrlOptions,
  signedMessage,
  signUrl,
  timingSafeEqual,
  type VerifySignedUrlOptions,
  verifySignedUrl,
} from './signed-url.ts'
export { splitUrl, type UrlParts } from './split-url.ts'
export {
  checkOperation,
  checkParamValue,
  type IssueCode,
  type OperationCheck,
  type ParamIssue,
  type ParamValue,
  parseListValue,
  type ValueCheck,
} from './validate.ts'
