import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine } from '@tessera/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepository } from '../db/repository.ts'
import { defaultTestDatabase, openTestDatabase, type TestDatabase } from '../db/test-database.ts'
import { createLogger } from '../platform/logger.ts'
import { createLocalStorage } from '../storage/local.ts'
import { SAMPLES_DIR, seedDemo } from './seed.ts'

describe('the demo seed', () => {
  const databases: TestDatabase[] = []
  let folder: string
  const engine = createEngine()
  const probed: number[] = []
  // The real engine, counting what the seed asks it to probe.
  const countingEngine = {
    ...engine,
    probe: (data: Buffer) => {
      probed.push(data.length)
      return engine.probe(data)
    },
  } as typeof engine

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tessera-seed-'))
  })
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.close()))
    await engine.close()
    await rm(folder, { recursive: true, force: true })
  })

  async function seedFresh(name: string) {
    const database = await openTestDatabase(defaultTestDatabase())
    databases.push(database)
    const repo = createRepository(database.database.db)
    const storage = createLocalStorage({ root: join(folder, name) })
    const organisation = await seedDemo({
      repo,
      storage,
      engine: countingEngine,
      logger: createLogger({ logLevel: 'silent' }),
    })
    const files = await repo.listFiles(organisation.id, { limit: 100 })
    return files.map(({ path, size, format, width, height, pages, hash }) => ({
      path,
      size,
      format,
      width,
      height,
      pages,
      hash,
    }))
  }

  it('stores every sample with its facts, and a second start in the process probes none again', async () => {
    const samples = (await readdir(SAMPLES_DIR)).filter((name) => !name.endsWith('.md'))
    const first = await seedFresh('a')
    expect(first.map((file) => file.path).sort()).toEqual(
      samples.map((name) => `samples/${name}`).sort(),
    )
    const pdf = first.find((file) => file.format === 'pdf')
    expect(pdf).toMatchObject({ pages: 2 })
    expect(first.every((file) => (file.width ?? 0) > 0 && (file.height ?? 0) > 0)).toBe(true)
    const probesOfFirst = probed.length
    expect(probesOfFirst).toBeLessThanOrEqual(samples.length)

    // A second server of the same process (a test worker) on a fresh database: the same rows,
    // and the samples' facts come from the first reading.
    const second = await seedFresh('b')
    expect(second).toEqual(first)
    expect(probed.length).toBe(probesOfFirst)
  })
})
