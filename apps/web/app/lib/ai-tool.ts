// Rules of the AI tool pages: whether a tool's operations run on this server, the delivery URL
// a run fetches, and the comparison slider's keyboard steps.
import { CATALOGUE, type Catalogue, PRESET_PLUGIN, parseTransformations } from '@tessera/url'
import type { DynamicApp } from './api.ts'

/** The operations (`plugin.method`) of a tool's transformation; empty when it has none. */
export function toolOperations(transformation: string | undefined): string[] {
  if (transformation === undefined || transformation === '') return []
  try {
    return parseTransformations(transformation).map((t) => `${t.plugin}.${t.name}`)
  } catch {
    return []
  }
}

/**
 * A tool is usable when it has a transformation and every operation of it runs here (the
 * catalogue's `runnable`); presets are the organisation's and cannot be judged, so they do not
 * make a tool usable on the public pages.
 */
export function isToolRunnable(app: DynamicApp, catalogue: Catalogue = CATALOGUE): boolean {
  const operations = toolOperations(app.config.transformation)
  if (operations.length === 0) return false
  return operations.every((key) => {
    const [plugin = '', method = ''] = key.split('.')
    if (plugin === PRESET_PLUGIN) return false
    return catalogue.getOperation(plugin, method)?.runnable === true
  })
}

/** Whether the tool runs an AI (slow) operation: visitors' runs of it are signed and counted. */
export function isAiTool(app: DynamicApp, catalogue: Catalogue = CATALOGUE): boolean {
  return toolOperations(app.config.transformation).some((key) => {
    const [plugin = '', method = ''] = key.split('.')
    return catalogue.getOperation(plugin, method)?.slow === true
  })
}

/** The delivery URL of a run: the tool's transformation on one file of an organisation. */
export function toolRunUrl(input: {
  deliveryBase: string
  cloudName: string
  transformation: string
  filePath: string
}): string {
  const base = input.deliveryBase.replace(/\/+$/, '')
  return `${base}/v2/${input.cloudName}/${input.transformation}/${input.filePath}`
}

/** The original of the same file. */
export function originalUrl(input: { deliveryBase: string; cloudName: string; filePath: string }) {
  return toolRunUrl({ ...input, transformation: 'original' })
}

/** The comparison slider's position (0–100) after a key; undefined for keys it ignores. */
export function sliderKey(position: number, key: string): number | undefined {
  const clamp = (value: number) => Math.min(100, Math.max(0, value))
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(position - 1)
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(position + 1)
    case 'PageDown':
      return clamp(position - 10)
    case 'PageUp':
      return clamp(position + 10)
    case 'Home':
      return 0
    case 'End':
      return 100
    default:
      return undefined
  }
}

/** A file name for the download: the tool's slug and the result's format. */
export function downloadName(slug: string, format: string): string {
  const extension = format === 'jpeg' ? 'jpg' : format === '' ? 'png' : format
  return `${slug}-result.${extension}`
}
