// Expanding `p:name` references of a pattern with an organisation's stored presets. The URL
// package's `expandPresets` is synchronous, so presets are loaded as it asks for them: each
// round records the names it missed, loads them, and tries again.
import { expandPresets, type PresetDefinition } from '@tessera/url'
import type { Preset } from '../db/index.ts'

/** Rounds of loading before giving up: more than the nesting the URL package allows. */
const MAX_ROUNDS = 8

/**
 * The pattern with every preset reference expanded, or undefined when presets nest deeper than
 * `MAX_ROUNDS` loads. `known` seeds definitions that are not stored (a preset being checked).
 *
 * @throws the URL package's errors (unknown or archived preset, bad variable, cycle).
 */
export async function expandStoredPresets(
  pattern: string,
  load: (name: string) => Promise<Preset | undefined>,
  known: Map<string, PresetDefinition | undefined> = new Map(),
): Promise<string | undefined> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const missing = new Set<string>()
    try {
      return expandPresets(pattern, (name) => {
        if (known.has(name)) return known.get(name)
        missing.add(name)
        return undefined
      })
    } catch (error) {
      if (missing.size === 0) throw error
      for (const name of missing) {
        const row = await load(name)
        known.set(
          name,
          row === undefined
            ? undefined
            : {
                transformation: row.transformation,
                params: row.params as PresetDefinition['params'],
                archived: row.archived,
              },
        )
      }
    }
  }
  return undefined
}
