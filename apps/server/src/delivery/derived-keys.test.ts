// The index's keys in memory (derived-keys.ts): "absent" only when certain, and a plain miss on
// the embedded database answered without its row lookup, with the same bytes and headers as the
// stored image's hit; on PostgreSQL every miss still asks the database.
import { beforeAll, describe, expect, it } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { createDelivery } from './delivery.ts'
import { cacheKeyOfStorageKey, createDerivedKeys } from './derived-keys.ts'

const KEY_A = 'a'.repeat(40)
const KEY_B = 'b'.repeat(40)
const storageKeyOf = (cacheKey: string) => `orgs/o1/derived/${cacheKey}.jpeg`

describe('the set of derived keys', () => {
  it('says absent only once the keys already in the index are read', async () => {
    let release: (keys: string[]) => void = () => undefined
    const keys = createDerivedKeys({
      enabled: true,
      load: () =>
        new Promise<string[]>((resolve) => {
          release = resolve
        }),
    })
    // The first question starts the read and is answered "maybe present" meanwhile.
    expect(keys.absent(KEY_B)).toBe(false)
    keys.recorded('c'.repeat(40))
    release([KEY_A])
    await keys.settle()
    expect(keys.absent(KEY_A)).toBe(false)
    expect(keys.absent('c'.repeat(40))).toBe(false)
    expect(keys.absent(KEY_B)).toBe(true)
  })

  it('follows rows recorded and evicted', async () => {
    const keys = createDerivedKeys({ enabled: true, load: async () => [] })
    keys.absent(KEY_A)
    await keys.settle()
    expect(keys.absent(KEY_A)).toBe(true)
    keys.recorded(KEY_A)
    expect(keys.absent(KEY_A)).toBe(false)
    keys.removed(storageKeyOf(KEY_A))
    expect(keys.absent(KEY_A)).toBe(true)
    // A key counted twice (read and recorded while the read ran) stays "maybe" after one removal.
    keys.recorded(KEY_B)
    keys.recorded(KEY_B)
    keys.removed(storageKeyOf(KEY_B))
    expect(keys.absent(KEY_B)).toBe(false)
  })

  it('never says absent when off, past its bound, or after a failed read', async () => {
    const off = createDerivedKeys({ enabled: false, load: async () => [] })
    expect(off.absent(KEY_A)).toBe(false)
    await off.settle()
    expect(off.absent(KEY_A)).toBe(false)

    const full = createDerivedKeys({ enabled: true, load: async () => [KEY_A, KEY_B], maxKeys: 1 })
    full.absent(KEY_A)
    await full.settle()
    expect(full.absent('c'.repeat(40))).toBe(false)

    const growing = createDerivedKeys({ enabled: true, load: async () => [], maxKeys: 1 })
    growing.absent(KEY_A)
    await growing.settle()
    growing.recorded(KEY_A)
    growing.recorded(KEY_B)
    expect(growing.absent('c'.repeat(40))).toBe(false)

    const errors: unknown[] = []
    const failing = createDerivedKeys({
      enabled: true,
      load: async () => {
        throw new Error('database closed')
      },
      onError: (error) => errors.push(error),
    })
    failing.absent(KEY_A)
    await failing.settle()
    expect(failing.absent(KEY_A)).toBe(false)
    expect(errors).toHaveLength(1)
  })

  it('reads the cache key back from a derived storage key', () => {
    expect(cacheKeyOfStorageKey(storageKeyOf(KEY_A))).toBe(KEY_A)
    expect(cacheKeyOfStorageKey('orgs/o1/originals/a.jpeg')).toBeUndefined()
  })
})

const plain = (variant: string) =>
  `/v2/demo/t.resize(w:48,h:48,f:fill)~${variant}~t.toFormat(f:jpeg)/samples/astronaut.png`
/** Headers that differ between any two answers (or say how the answer was made). */
const PER_ANSWER = new Set(['date', 'x-request-id', 'keep-alive', 'connection'])

function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name)))
}

describe.each<TestDatabaseKind>(testDatabases('server'))('a plain miss on %s', (kind) => {
  let asked: string[]
  const get = (path: string) => fetch(`${suite.server.url}${path}`)

  const suite = useTestServer(kind)

  beforeAll(async () => {
    const { lookups } = suite.server.services.context
    const derived = lookups.derived.bind(lookups)
    asked = []
    lookups.derived = (cacheKey) => {
      asked.push(cacheKey)
      return derived(cacheKey)
    }
  })

  it('asks the database for its row only where other processes may have stored it', async () => {
    // The first miss starts the read of the keys already stored.
    expect((await get(plain('t.flip()'))).status).toBe(200)
    await suite.server.services.delivery.settle()
    asked.length = 0

    const miss = await get(plain('t.flop()'))
    expect(miss.status).toBe(200)
    const missBody = Buffer.from(await miss.arrayBuffer())
    const cacheKey = (miss.headers.get('etag') as string).slice(1, -1)
    expect(asked.filter((key) => key === cacheKey)).toHaveLength(kind === 'pglite' ? 0 : 1)
    await suite.server.services.delivery.settle()
    expect(await suite.server.services.context.repo.findDerived(cacheKey)).toBeDefined()

    // Stored now: the same URL is a hit, looked up, with the very bytes and headers of the miss.
    const hit = await get(plain('t.flop()'))
    expect(hit.status).toBe(200)
    expect(Buffer.from(await hit.arrayBuffer()).equals(missBody)).toBe(true)
    expect(headersOf(hit)).toEqual(headersOf(miss))
    expect(asked.filter((key) => key === cacheKey)).toHaveLength(kind === 'pglite' ? 1 : 2)
  })
})

describe('keys stored before a delivery started', () => {
  const suite = useTestServer('pglite')

  it('are read at its first miss, so their images are hits, not renders', async () => {
    const response = await fetch(`${suite.server.url}${plain('t.rotate(a:90)')}`)
    const before = Buffer.from(await response.arrayBuffer())
    const etag = response.headers.get('etag')
    await suite.server.services.delivery.settle()

    // A delivery started now (as after a restart) knows none of the keys stored so far.
    const delivery = createDelivery(suite.server.services.context)
    const deliver = (path: string) =>
      delivery.deliver({
        method: 'GET',
        path,
        search: '',
        url: `${suite.server.url}${path}`,
        headers: new Headers(),
      })
    // Another URL first: its miss starts the read of the stored keys.
    expect((await deliver(plain('t.rotate(a:270)'))).status).toBe(200)
    await delivery.settle()
    const hits = async () =>
      (await suite.server.services.context.metrics.cache.get()).values.find(
        (value) => value.labels.result === 'hit',
      )?.value ?? 0
    const hitsBefore = await hits()
    const again = await deliver(plain('t.rotate(a:90)'))
    expect(again.headers.get('etag')).toBe(etag)
    expect(Buffer.from(await again.arrayBuffer()).equals(before)).toBe(true)
    expect(await hits()).toBe(hitsBefore + 1)
  })
})
