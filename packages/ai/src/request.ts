import type { AiImage } from './image.ts'
import type { AiParams } from './params.ts'

/** One AI step of a chain. */
export interface AiRequest {
  /** The catalogue key, `erase.bg`. */
  key: string
  image: AiImage
  params: AiParams
  /** Largest side of a result (the engine's `maxOutputDimension`). */
  maxOutputDimension?: number
  /** Loads another stored file (`bgi` of shadow.gen, `i` of im.mask). */
  loadImage?: (fileId: string) => Promise<AiImage>
}

/** What an AI step gives back. */
export interface AiResult {
  /** The image the chain continues with (the input itself for a detection). */
  image: AiImage
  /** What a detection found, for the transformation context; undefined for edits. */
  data?: Record<string, unknown>
}
