// The public API of @tessera/ai: every export here is intentional.
export {
  type Ai,
  type AiRequest,
  type AiResult,
  type CropGravity,
  createAi,
  percentBox,
} from './ai.ts'
export {
  AI_OPERATIONS,
  type AiOperationKey,
  DETECTIONS,
  isAiOperation,
  makesTransparency,
  UNAVAILABLE,
} from './catalogue.ts'
export {
  AI_COST_MODELS,
  type AiCostModel,
  type AiCostModelName,
  costModelsOf,
  estimateAiMs,
  largestSquareWithin,
} from './cost.ts'
export {
  AI_CLIENT_ERROR_CODES,
  AI_MESSAGES,
  AiError,
  type AiErrorCode,
  isAiError,
} from './errors.ts'
export type { AiImage, Box } from './image.ts'
export type { AiColour, AiParams } from './params.ts'
export { type AiSettings, DEFAULT_AI_SETTINGS, resolveAiSettings } from './settings.ts'
