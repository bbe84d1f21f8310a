// Derived-image index rows are written a few at a time (derived-index.ts): rows made within the
// window go in as one INSERT, a full batch goes at once, and one row that cannot go in (its file
// deleted meanwhile) does not cost the others theirs. Both engines.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { DerivedInput, Repository } from '../db/repository.ts'
import { useTestRepository } from '../db/repository-suite.ts'
import { createDerivedIndexWriter } from './derived-index.ts'

const ENGINES = ['pglite', 'postgres'] as const

describe.each(ENGINES)('the derived-image index writer (%s)', (engine) => {
  const suite = useTestRepository(engine)

  /** A file of a new organisation, and a maker of index rows for it. */
  async function fileWithRows() {
    const tag = randomBytes(4).toString('hex')
    const organisation = await suite.repo.createOrganisation({
      cloudName: `idx${tag}`,
      name: 'Index',
    })
    const file = await suite.repo.upsertFile(organisation.id, {
      path: 'a.jpg',
      name: 'a.jpg',
      size: 10,
      format: 'jpeg',
      contentType: 'image/jpeg',
      width: 10,
      height: 10,
      hash: 'a'.repeat(64),
      storageKey: `orgs/${organisation.id}/originals/a.jpg`,
    })
    let count = 0
    const row = (fileId = file.id): DerivedInput => {
      const cacheKey = `${tag}-${count++}`
      return {
        organisationId: organisation.id,
        fileId,
        fileVersion: file.version,
        cacheKey,
        storageKey: `orgs/${organisation.id}/derived/${cacheKey}.jpeg`,
        format: 'jpeg',
        contentType: 'image/jpeg',
        size: 100,
        width: 5,
        height: 5,
        context: [{ name: 'resize', params: { w: 5 } }],
      }
    }
    return { organisation, file, row }
  }

  /** The repository, counting the INSERTs of several rows it is asked for. */
  function counted() {
    const batches: number[] = []
    const singles: string[] = []
    const target: Pick<Repository, 'recordDerived' | 'recordDerivedMany'> = {
      recordDerivedMany: (inputs) => {
        batches.push(inputs.length)
        return suite.repo.recordDerivedMany(inputs)
      },
      recordDerived: (input) => {
        singles.push(input.cacheKey)
        return suite.repo.recordDerived(input)
      },
    }
    return { target, batches, singles }
  }

  it('writes the rows made within the window as one INSERT, each readable once settled', async () => {
    const { row } = await fileWithRows()
    const { target, batches, singles } = counted()
    const writer = createDerivedIndexWriter(target, { windowMs: 200 })
    const rows = [row(), row(), row()]
    await Promise.all(rows.map((input) => writer.record(input)))
    expect(batches).toEqual([3])
    expect(singles).toEqual([])
    for (const input of rows) {
      const found = await suite.repo.findDerived(input.cacheKey)
      expect(found?.storageKey).toBe(input.storageKey)
      expect(found?.context).toEqual(input.context)
    }
  })

  it('sends a full batch at once, without waiting for the window', async () => {
    const { row } = await fileWithRows()
    const { target, batches } = counted()
    // A window no test would wait for: only a full batch can have been written.
    const writer = createDerivedIndexWriter(target, { windowMs: 3_600_000, maxRows: 2 })
    await Promise.all([writer.record(row()), writer.record(row())])
    expect(batches).toEqual([2])
  })

  it('keeps the other rows when one cannot go in, and fails that one alone', async () => {
    const first = await fileWithRows()
    const second = await fileWithRows()
    const deleted = await suite.repo.deleteFile(second.organisation.id, 'a.jpg')
    expect(deleted?.file.id).toBe(second.file.id)
    const { target, batches, singles } = counted()
    const writer = createDerivedIndexWriter(target, { windowMs: 100 })
    const good = [first.row(), first.row()]
    const orphan = second.row()
    const outcomes = await Promise.allSettled([
      writer.record(good[0] as DerivedInput),
      writer.record(orphan),
      writer.record(good[1] as DerivedInput),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(batches).toEqual([3])
    expect(singles).toEqual([good[0]?.cacheKey, orphan.cacheKey, good[1]?.cacheKey])
    for (const input of good)
      expect((await suite.repo.findDerived(input.cacheKey))?.fileId).toBe(first.file.id)
    expect(await suite.repo.findDerived(orphan.cacheKey)).toBeUndefined()
  })

  it('keeps the first row of a cache key and fills in a missing context, as recordDerived does', async () => {
    const { row } = await fileWithRows()
    const writer = createDerivedIndexWriter(suite.repo, { windowMs: 10 })
    const original = { ...row(), context: null }
    await suite.repo.recordDerived(original)
    await writer.record({
      ...original,
      storageKey: `${original.storageKey}.other`,
      context: [{ name: 'flip' }],
    })
    const found = await suite.repo.findDerived(original.cacheKey)
    expect(found?.storageKey).toBe(original.storageKey)
    expect(found?.context).toEqual([{ name: 'flip' }])
  })
})
