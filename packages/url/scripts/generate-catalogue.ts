// Regenerates src/catalogue-data.ts from the research catalogue (scripts/plugins.json, a copy of
// shared/reference/plugins.json) and the hand-added ranges (scripts/catalogue-overrides.ts).
// Usage: npm run generate:catalogue -w @tessera/url [-- path/to/plugins.json]
// `runnable`, `slow` and `unavailableReason` are edited in the output as the engine gains
// operations; the generator carries them over. catalogue-generator.test.ts proves that
// regenerating gives the committed file.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildPlugins, readKept, renderCatalogue, type SourceCatalogue } from './catalogue-build.ts'
import { withExtensions } from './catalogue-extensions.ts'
import { PARAM_OVERRIDES } from './catalogue-overrides.ts'

const here = dirname(fileURLToPath(import.meta.url))
const source = resolve(process.argv[2] ?? resolve(here, 'plugins.json'))
const target = resolve(here, '../src/catalogue-data.ts')

let previous = ''
try {
  previous = readFileSync(target, 'utf8')
} catch {}
const data = withExtensions(JSON.parse(readFileSync(source, 'utf8')) as SourceCatalogue)
const plugins = buildPlugins(data, readKept(previous), PARAM_OVERRIDES)
writeFileSync(target, renderCatalogue(plugins))
// The committed file is as the formatter leaves it.
const biome = resolve(here, '../../../node_modules/.bin/biome')
const formatted = spawnSync(biome, ['format', '--write', target], { encoding: 'utf8' })
if (formatted.status !== 0) throw new Error(`biome format failed:\n${formatted.stderr}`)
console.log(
  `wrote ${target}: ${plugins.length} plugins, ${plugins.reduce((n, p) => n + p.operations.length, 0)} operations`,
)
