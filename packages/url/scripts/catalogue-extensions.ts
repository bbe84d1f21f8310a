// Tessera's own plugins, beside the research catalogue: one JSON file per plugin in
// `extensions/` (`vid.json`, …), in the research catalogue's shape, read in name order and
// appended to it by the generator and its test.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SourceCatalogue } from './catalogue-build.ts'

const folder = resolve(dirname(fileURLToPath(import.meta.url)), 'extensions')

/** `source` with the extension plugins appended (a new object; `source` is not changed). */
export function withExtensions(source: SourceCatalogue): SourceCatalogue {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
  const extra = files.map(
    (name) =>
      JSON.parse(readFileSync(resolve(folder, name), 'utf8')) as SourceCatalogue['plugins'][number],
  )
  return { plugins: [...source.plugins, ...extra] }
}
