// Demo data at first start: the `demo` organisation with the sample images and a few presets,
// so the README's example URLs answer at once. Running it again changes nothing.
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sniffType } from '../assets/files.ts'
import type { AppContext } from '../context.ts'

/** The sample images shipped with the repository (see demo/samples/README.md for licences). */
export const SAMPLES_DIR = fileURLToPath(new URL('../../demo/samples', import.meta.url))

export const DEMO_CLOUD_NAME = 'demo'

/** Presets of the demo organisation: plain, with variables, and one archived. */
export const DEMO_PRESETS = [
  { name: 'thumbnail', transformation: 't.resize(w:200,h:200)' },
  {
    name: 'card',
    transformation: 't.resize(w:$w,h:$h)~t.extend(t:8,l:8,b:8,r:8,bc:$bg)',
    params: {
      w: { type: 'integer', default: 400 },
      h: { type: 'integer', default: 300 },
      bg: { type: 'color', default: 'ffffff' },
    },
  },
  { name: 'mono', transformation: 't.grey()~t.sharpen(s:1.5)' },
  { name: 'retired', transformation: 't.flip()', archived: true },
] as const

/**
 * Credits the demo organisation gets each month (granted at the first start in the month).
 * Visitors' AI runs spend them (one per new derived image, ANON_AI_RUNS_PER_DAY per address a
 * day): 10 000 is 500 address-days of a full allowance.
 */
export const DEMO_MONTHLY_CREDITS = 10_000

/** What the seed reads of a sample file's bytes: its type and its probe. */
type SampleFacts = [
  Awaited<ReturnType<typeof sniffType>>,
  Awaited<ReturnType<AppContext['engine']['probe']>>,
]

/**
 * The facts of each sample already read in this process, by content hash: bounded by the
 * samples folder (ten files). A process that starts several servers (a test worker) probes each
 * sample once; the PDF's probe alone starts a worker thread and its WebAssembly renderer
 * (~0.3 s of CPU a start).
 */
const sampleFacts = new Map<string, Promise<SampleFacts>>()

function readSampleFacts(
  engine: AppContext['engine'],
  hash: string,
  data: Buffer,
): Promise<SampleFacts> {
  let facts = sampleFacts.get(hash)
  if (facts === undefined) {
    facts = Promise.all([sniffType(data), engine.probe(data)])
    sampleFacts.set(hash, facts)
    // A failed probe is not kept: the next start tries again.
    facts.catch(() => sampleFacts.delete(hash))
  }
  return facts
}

/** Creates the demo organisation, its files and presets when they are missing. */
export async function seedDemo(app: Pick<AppContext, 'repo' | 'storage' | 'engine' | 'logger'>) {
  const { repo, storage, engine, logger } = app
  const organisation =
    (await repo.findOrganisationByCloudName(DEMO_CLOUD_NAME)) ??
    (await repo.createOrganisation({ cloudName: DEMO_CLOUD_NAME, name: 'Demo' }))
  // The demo's AI operations spend credits like any organisation's: an allowance each month.
  const month = new Date().toISOString().slice(0, 7)
  await repo.grantCredits(organisation.id, DEMO_MONTHLY_CREDITS, 'demo_allowance', month)
  // Visitors' AI chains are signed with a demo key (playground/sign.ts): strict transformations.
  if ((await repo.listSigningKeys(organisation.id)).length === 0) {
    await repo.createSigningKey(organisation.id)
  }
  let added = 0
  for (const name of (await readdir(SAMPLES_DIR)).sort()) {
    const extension = extname(name).toLowerCase()
    if (!['.png', '.jpg', '.jpeg', '.webp', '.gif', '.pdf'].includes(extension)) continue
    const path = `samples/${name}`
    if ((await repo.findFile(organisation.id, path)) !== undefined) continue
    const data = await readFile(join(SAMPLES_DIR, name))
    const hash = createHash('sha256').update(data).digest('hex')
    const [type, probe] = await readSampleFacts(engine, hash, data)
    const storageKey = `orgs/${organisation.id}/originals/samples-${hash.slice(0, 16)}${extension}`
    await storage.put(storageKey, data, { contentType: type.contentType })
    await repo.upsertFile(organisation.id, {
      path,
      name,
      size: data.length,
      format: type.format,
      contentType: type.contentType,
      width: probe.width,
      height: probe.height,
      pages: probe.pages,
      hash,
      storageKey,
    })
    added++
  }
  for (const preset of DEMO_PRESETS) {
    if ((await repo.findPreset(organisation.id, preset.name)) !== undefined) continue
    await repo.upsertPreset(organisation.id, {
      name: preset.name,
      transformation: preset.transformation,
      ...('params' in preset ? { params: preset.params } : {}),
      ...('archived' in preset ? { archived: preset.archived } : {}),
    })
  }
  if (added > 0) logger.info({ files: added }, 'demo organisation seeded')
  return organisation
}
