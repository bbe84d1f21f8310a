// The transformation context in Pixelbin's shape (https://www.pixelbin.io/docs/context/):
// `{ context: { steps, metadata, headers, params } }`, each step with its name, identifier,
// operation, params, what it found (`data`) and the image after it.
import type { StepReport } from '@tessera/engine'
import { CATALOGUE, SIGNATURE_PARAMS } from '@tessera/url'
import type { FileRow } from '../delivery/resolve.ts'

/** Request headers the context echoes, as Pixelbin's does; never cookies or credentials. */
const ECHOED_HEADERS = ['host', 'accept', 'accept-language', 'user-agent', 'origin'] as const

const SIGNATURE_NAMES: ReadonlySet<string> = new Set(Object.values(SIGNATURE_PARAMS))

/** One step of the context. */
export interface ContextStep {
  /** The method (`bg` of `erase.bg`), as Pixelbin names a step. */
  name: string
  /** The plugin (`erase`). */
  identifier: string
  /** `Basic` for `t.*`, the operation's display name otherwise (`Erase Background`). */
  operation: string
  /** What a detection found; `{}` for an operation that only changes the image. */
  data: Record<string, unknown>
  params: Record<string, unknown>
  /** The image after the step. */
  width: number
  height: number
  hasAlpha: boolean
  channels: number
}

/** The answer of the context API. */
export interface TransformationContextAnswer {
  context: {
    steps: ContextStep[]
    metadata: Record<string, unknown>
    /** The image as the URL answers it: its format (a cut-out's keeps alpha: png, webp, avif). */
    output: { format: string; hasAlpha: boolean | null }
    headers: Record<string, string>
    params: Record<string, string>
  }
}

function stepOf(step: StepReport): ContextStep {
  const spec = CATALOGUE.getOperation(step.identifier, step.operation)
  return {
    name: step.operation,
    identifier: step.identifier,
    operation: step.identifier === 't' ? 'Basic' : (spec?.displayName ?? step.name),
    data: step.data ?? {},
    params: step.params,
    width: step.width,
    height: step.height,
    hasAlpha: step.hasAlpha,
    channels: step.hasAlpha ? 4 : 3,
  }
}

/** The context of a delivery URL's chain, from the steps the engine reported. */
export function contextAnswer(
  file: FileRow,
  steps: readonly StepReport[],
  request: { headers: Headers; search: string; format: string },
): TransformationContextAnswer {
  const headers: Record<string, string> = {}
  for (const name of ECHOED_HEADERS) {
    const value = request.headers.get(name)
    if (value !== null) headers[name] = value
  }
  const params: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(request.search)) {
    if (!SIGNATURE_NAMES.has(name)) params[name] = value
  }
  return {
    context: {
      steps: steps.map(stepOf),
      metadata: {
        width: file.width,
        height: file.height,
        extension: file.format,
        format: file.format,
        contentType: file.contentType,
        size: file.size,
        assetType: 'image',
        isImageAsset: true,
        isAudioAsset: false,
        isVideoAsset: false,
        isRawAsset: false,
      },
      output: {
        format: request.format,
        // After the last step; null for the original as stored (not decoded here).
        hasAlpha: steps.at(-1)?.hasAlpha ?? null,
      },
      headers,
      params,
    },
  }
}
