/**
 * The four error kinds of the delivery-URL language (SPEC §8). HTTP status is chosen at the
 * server edge from `code`, never here.
 */
export type UrlErrorCode =
  | 'invalid_url'
  | 'illegal_argument'
  | 'illegal_query_parameter'
  | 'transformation_error'

/** Every user-visible message of the language lives here, so wording changes in one place. */
export const MESSAGES = {
  invalidUrl: 'Invalid Tessera url. Please make sure the url is correct.',
  errorProcessingUrl: 'Error Processing url. Please check the url is correct',
  invalidPattern: 'Invalid pattern',
  dpr: 'DPR value should be numeric and should be between 0.1 to 5.0',
  fAuto: 'F_auto value should be boolean',
  cloudNameRequired: 'key cloudName should be defined',
  cloudNameOnCustomDomain: 'key cloudName is not valid for custom domains',
  filePathRequired: 'key filePath should be defined',
  workerPathRequired: 'key workerPath should be a defined',
  zoneInvalid: 'key zone should be a 6-character slug of letters, digits, _ or -',
  objectExpected: (what: string) => `Expected ${what} to be an object`,
  arrayExpected: (what: string, got: string) =>
    `Expected ${what} to be an Array. Got ${got} instead`,
  keyMissing: (name: string) => `key not specified in '${name}'`,
  valueMissing: (key: string, name: string) => `value not specified for key '${key}' in '${name}'`,
  valueUnsafe: (key: string, name: string) =>
    `value for key '${key}' in '${name}' contains a character that breaks the pattern`,
  pluginMissing: (name: string) => `plugin not specified in '${name}'`,
  nameInvalid: (name: string) =>
    `Invalid name in '${name}': plugin and operation names use letters, digits, _ and - only`,
  presetParamsEmpty: (preset: string) => `Params config of preset ${preset} is empty`,
  variableNotDefined: (variable: string) =>
    `Variable object not defined for the variable $${variable}`,
  variableType: (key: string, preset: string, type: string) =>
    `Value for '${key}' in '${preset}' must be a type of ${type}`,
  presetMissingName: (operation: string) => `Missing param 'n' for preset: ${operation}`,
  presetInvalid: (preset: string) => `Invalid preset: ${preset}`,
  presetArchived: (preset: string) => `Preset ${preset} is archived`,
  presetTooDeep: (preset: string) => `Preset ${preset} nests presets too deeply or in a cycle`,
  pluginNotFound: (plugin: string) => `Could not find the plugin '${plugin}'`,
  operationNotFound: (plugin: string, method: string) =>
    `Could not find the operation '${method}' in plugin '${plugin}'`,
  formatNotAllowed: (operation: string, format: string) =>
    `${operation} does not accept ${format} files`,
  requiredField: (field: string) => `${field} is a required field`,
  tooSmall: (field: string, min: number) =>
    `Value for ${field} must be greater than or equal to ${min}`,
  tooBig: (field: string, max: number) => `Value for ${field} must be less than or equal to ${max}`,
  invalidParams: 'Invalid params provided',
  typeExpected: (expected: string, param: string, received: string) =>
    `Expected ${expected} for ${param}, received '${received}'`,
  listFormat: 'Received value is of invalid format',
  listNotString: 'Value must be a string',
  rgb: 'Expected three numbers below 256',
  alpha: 'Expected alpha value as a fraction or percentage',
  colorFormat: (value: string) => `Expected a colour as rgb(), rgba() or hex, received '${value}'`,
  maxTransformations: 'Cannot add more than 15 transformations.',
  maxTransformationsPreset: 'Cannot add preset, causing more than 15 transformations.',
  signRequired: 'url, accessKey, token & expirySeconds are required for generating signed URL',
  signExpiry: (got: string) => `Expected expirySeconds to be a Number. Got ${got} instead`,
  signAlreadySigned: 'URL already has a signature',
  signExpiryTooLong: (max: number) => `expirySeconds must be at most ${max} (ten years)`,
  signUnknownParameter: (key: string) =>
    `A signed URL may carry only the query options dpr and f_auto, not '${key}'`,
  duplicateQueryParameter: (key: string) => `The query option '${key}' is given more than once`,
  duplicateParam: (key: string, operation: string) =>
    `Parameter '${key}' is given more than once in '${operation}'`,
  signRequestNoUrl: 'No URL present in request config, unable to sign request',
  signRequestNoKey: 'A signing key is required to sign a request',
  bytesInvalid: (got: string) => `Expected a finite number of bytes, received ${got}`,
} as const

/** Base class of every error this package throws; `code` is stable, `message` is for people. */
export class UrlError extends Error {
  readonly code: UrlErrorCode

  constructor(code: UrlErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    this.name = 'UrlError'
  }
}

/** The URL does not fit any delivery-URL shape, or its pattern cannot be read. */
export class InvalidUrlError extends UrlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_url', message, options)
    this.name = 'InvalidUrlError'
  }
}

/** A builder received an argument it cannot turn into a URL. */
export class IllegalArgumentError extends UrlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('illegal_argument', message, options)
    this.name = 'IllegalArgumentError'
  }
}

/** A `dpr` or `f_auto` option is out of its domain. */
export class IllegalQueryParameterError extends UrlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('illegal_query_parameter', message, options)
    this.name = 'IllegalQueryParameterError'
  }
}

/** A transformation or preset cannot be parsed or expanded. */
export class TransformationError extends UrlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('transformation_error', message, options)
    this.name = 'TransformationError'
  }
}

/** Returns true for any error thrown by this package. */
export function isUrlError(error: unknown): error is UrlError {
  return error instanceof UrlError
}

/** Short, safe description of an unexpected value for messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}
