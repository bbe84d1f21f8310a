// A derived image whose write finds the store queue full (store-queue.ts) is answered from the
// rendered bytes and not stored: no file, no index row, counted as not stored. The row of a
// stored image is written only after its file is in storage (decision 014).
import { parsePattern } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { defaultTestDatabase } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { createDerivedBudget } from './budget.ts'
import { createDeriver } from './derive.ts'
import { createStoreQueue } from './store-queue.ts'

describe('derived images and a full store queue', () => {
  const suite = useTestServer(defaultTestDatabase())

  async function resolvedAstronaut(pattern: string) {
    const { repo, lookups } = suite.server.services.context
    const organisation = await lookups.organisationByCloudName('demo')
    if (organisation === undefined) throw new Error('no demo organisation')
    const file = await repo.findFile(organisation.id, 'samples/astronaut.png')
    if (file === undefined) throw new Error('no sample')
    const { value } = parsePattern(pattern, { format: 'png' })
    return { organisationId: organisation.id, file, operations: value, options: {} }
  }

  it('answers the image, and stores neither its file nor its row while the queue is full', async () => {
    const context = suite.server.services.context
    const stores = createStoreQueue({ concurrency: 1, maxPendingBytes: 1 })
    let release: () => void = () => undefined
    // A write that holds the queue's only slot (a disk that has not answered yet).
    const holding = stores.offer(1, () => new Promise<void>((resolve) => (release = resolve)))
    const deriver = createDeriver(context, {
      budget: createDerivedBudget(context),
      findMergeFile: async () => undefined,
      stores,
    })
    const before = (await context.metrics.derivedNotStored.get()).values[0]?.value ?? 0
    const resolved = await resolvedAstronaut('t.resize(w:33)')
    const derived = await deriver.deriveOnce(resolved, 'queue-full-key', 1, undefined)
    await derived.persisted

    expect(derived.data.length).toBeGreaterThan(0)
    expect(derived.width).toBe(33)
    expect(await context.storage.get(derived.storageKey)).toBeUndefined()
    expect(await context.repo.findDerived('queue-full-key')).toBeUndefined()
    expect((await context.metrics.derivedNotStored.get()).values[0]?.value).toBe(before + 1)
    release()
    await holding
  })

  it('writes the row only once the file is in storage', async () => {
    const context = suite.server.services.context
    const stores = createStoreQueue()
    const deriver = createDeriver(context, {
      budget: createDerivedBudget(context),
      findMergeFile: async () => undefined,
      stores,
    })
    const resolved = await resolvedAstronaut('t.resize(w:34)')
    const derived = await deriver.deriveOnce(resolved, 'queue-stored-key', 1, undefined)
    await derived.persisted

    const row = await context.repo.findDerived('queue-stored-key')
    expect(row?.storageKey).toBe(derived.storageKey)
    expect(await context.storage.get(derived.storageKey)).toEqual(derived.data)
  })
})
