// Chain items and the delivery URLs they come from: an operation or a preset as a chain entry,
// the count the 15-operation cap applies to (SPEC §9), and a shared `?url=` read back into an
// image and its chain. Pure, beside the reducer (playground-state.ts) that holds them.
import {
  CATALOGUE,
  type Catalogue,
  countOperations,
  MAX_TRANSFORMATIONS,
  type OperationSpec,
  PRESET_PLUGIN,
  parseTransformations,
  splitOperations,
} from '@tessera/url'
import type { ChainItem, ImageSource, Preset } from './playground-state.ts'

/** A chain item for a catalogue operation, with no values given (defaults apply). */
export function operationItem(operation: OperationSpec): ChainItem {
  return {
    plugin: operation.plugin,
    method: operation.method,
    displayName: operation.displayName,
    values: {},
    isPreset: false,
  }
}

/** A chain item for a preset; it counts as its operations under the cap. */
export function presetItem(preset: Preset): ChainItem {
  return {
    plugin: PRESET_PLUGIN,
    method: preset.presetName,
    displayName: preset.presetName,
    values: {},
    isPreset: true,
    presetName: preset.presetName,
    transformation: preset.transformation,
  }
}

/** How many operations the chain counts for, presets expanded (SPEC §9). */
export function chainCount(items: readonly ChainItem[]): number {
  return countOperations(items)
}

export { MAX_TRANSFORMATIONS }

/**
 * Reads a delivery URL (`?url=` of a shared playground link) into its image and chain. Presets
 * are looked up in `presets` for their pattern (the cap counts their operations); unknown
 * operations are kept, marked by the catalogue lookup at render time.
 *
 * @returns null when the text is not a delivery URL.
 */
export function readDeliveryUrl(
  text: string,
  presets: readonly Preset[],
  catalogue: Catalogue = CATALOGUE,
): { source: ImageSource; items: ChainItem[] } | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return null
  }
  const match = /^\/v2\/([^/]+)\/([^/]+)\/(.+)$/.exec(url.pathname)
  if (match === null) return null
  const [, cloudName = '', pattern = '', filePath = ''] = match
  let operations: ReturnType<typeof parseTransformations>
  try {
    operations = pattern === 'original' ? [] : parseTransformations(decodeURIComponent(pattern))
  } catch {
    return null
  }
  const items: ChainItem[] = operations.map((operation) => {
    const values = Object.fromEntries((operation.values ?? []).map((v) => [v.key, v.value]))
    if (operation.plugin === PRESET_PLUGIN) {
      const preset = presets.find((candidate) => candidate.presetName === operation.name)
      return {
        plugin: PRESET_PLUGIN,
        method: operation.name,
        displayName: operation.name,
        values,
        isPreset: true,
        presetName: operation.name,
        ...(preset === undefined ? {} : { transformation: preset.transformation }),
      }
    }
    const spec = catalogue.getOperation(operation.plugin, operation.name)
    return {
      plugin: operation.plugin,
      method: operation.name,
      displayName: spec?.displayName ?? `${operation.plugin}.${operation.name}`,
      values,
      isPreset: false,
    }
  })
  const extension = /\.([A-Za-z0-9]+)$/.exec(filePath)?.[1]?.toLowerCase() ?? ''
  return {
    source: {
      baseUrl: url.origin,
      cloudName,
      filePath,
      query: url.search.replace(/^\?/, ''),
      format: extension === 'jpg' ? 'jpeg' : extension,
    },
    items,
  }
}

/** Operations of a pattern (a preset's), for showing what it does. */
export function patternOperations(pattern: string): string[] {
  return pattern === '' ? [] : splitOperations(pattern)
}
