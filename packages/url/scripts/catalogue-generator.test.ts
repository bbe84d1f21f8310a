// The catalogue generator round-trips: the research catalogue, the overrides and the hand edits
// of the committed file give the committed file again, so regenerating loses nothing.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { PLUGINS } from '../src/catalogue-data.ts'
import { buildPlugins, readKept, renderCatalogue, type SourceCatalogue } from './catalogue-build.ts'
import { withExtensions } from './catalogue-extensions.ts'
import { PARAM_OVERRIDES } from './catalogue-overrides.ts'

const here = dirname(fileURLToPath(import.meta.url))
const target = resolve(here, '../src/catalogue-data.ts')
const committed = readFileSync(target, 'utf8')
const source = withExtensions(
  JSON.parse(readFileSync(resolve(here, 'plugins.json'), 'utf8')) as SourceCatalogue,
)

/** The text as the formatter leaves it, which is how the generator writes it. */
function formatted(text: string): string {
  const biome = resolve(here, '../../../node_modules/.bin/biome')
  const result = spawnSync(biome, ['format', `--stdin-file-path=${target}`], {
    input: text,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return result.stdout
}

const paramOf =
  (plugins: { operations: { key: string; params: { id: string }[] }[] }[]) =>
  (key: string, id: string) =>
    plugins
      .flatMap((plugin) => plugin.operations)
      .find((operation) => operation.key === key)
      ?.params.find((param) => param.id === id)

describe('the catalogue generator', () => {
  it('regenerates exactly the committed catalogue', () => {
    const plugins = buildPlugins(source, readKept(committed), PARAM_OVERRIDES)
    expect(plugins).toEqual(PLUGINS)
    expect(formatted(renderCatalogue(plugins))).toBe(committed)
  })

  it('keeps the hand-added ranges and patterns through the overrides file', () => {
    const bare = paramOf(buildPlugins(source, readKept(committed), {}))
    const full = paramOf(buildPlugins(source, readKept(committed), PARAM_OVERRIDES))
    expect(bare('ic.crop', 'w')).not.toHaveProperty('min')
    expect(full('ic.crop', 'w')).toMatchObject({ min: 0, max: 12000 })
    expect(full('ic.crop', 'ar')).toMatchObject({ expected: 'a ratio such as 16_9, 2 or 0.25' })
    const overridden = Object.values(PARAM_OVERRIDES).flatMap((params) => Object.keys(params))
    expect(overridden).toHaveLength(25)
  })

  it('carries runnable, slow and a reason over, even one the formatter wrapped', () => {
    const kept = readKept(committed)
    const operations = PLUGINS.flatMap((plugin) => plugin.operations)
    expect(kept.size).toBe(operations.length)
    for (const operation of operations) {
      expect(kept.get(operation.key), operation.key).toEqual({
        runnable: operation.runnable,
        slow: operation.slow,
        ...(operation.unavailableReason === undefined
          ? {}
          : { reason: operation.unavailableReason }),
      })
    }
    expect(committed).toMatch(/unavailableReason:\n/)
  })

  it('refuses an override that names no parameter', () => {
    expect(() =>
      buildPlugins(source, readKept(committed), { 'ic.crop': { nope: { min: 0 } } }),
    ).toThrow('ic.crop.nope')
  })
})
