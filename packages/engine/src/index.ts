// The public API of @tessera/engine: every export here is intentional.
// The AI service's settings, so a server validates them at boot without reaching into the models.
export {
  type Ai,
  type AiSettings,
  createAi,
  DEFAULT_AI_SETTINGS,
  resolveAiSettings,
} from '@tessera/ai'
export { isModelTimeout } from './ai-step.ts'
export { outputSizeOf } from './chain-geometry.ts'
export {
  type CreateEngineOptions,
  createEngine,
  type Engine,
  type ProbeResult,
  type StepReport,
  type TransformRequest,
  type TransformResult,
} from './engine.ts'
export {
  CLIENT_ERROR_CODES,
  EngineError,
  type EngineErrorCode,
  isEngineError,
  MESSAGES,
} from './errors.ts'
export {
  ANIMATED_FORMATS,
  acceptsType,
  autoAvifFits,
  CONTENT_TYPES,
  chooseOutputFormat,
  normaliseFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
  type OutputFormatRequest,
  QUALITY_WORDS,
} from './formats.ts'
export { MAX_MERGE_DEPTH } from './merge.ts'
export { getOperation, OPERATIONS, type Operation, type OperationKey } from './operations.ts'
export { DEFAULT_OPTIONS, type EngineOptions, resolveOptions } from './options.ts'
export type { OutputSettings, Step } from './step.ts'
