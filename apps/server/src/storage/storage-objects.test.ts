import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { beforeAll, describe, expect, it } from 'vitest'
import { ADAPTERS, bytes, listAll, uniqueOrg, useAdapterSuite, useS3rver } from './storage-suite.ts'

useS3rver()

describe.each(ADAPTERS)('$kind storage', ({ kind, create }) => {
  const t = useAdapterSuite({ kind, create })

  it('says which kind it is', () => {
    expect(t.storage.kind).toBe(kind)
  })

  it('passes its readiness check', async () => {
    await expect(t.storage.check()).resolves.toBeUndefined()
  })

  describe('put, get and stat', () => {
    it('round-trips a Buffer and reports its size', async () => {
      const key = `${uniqueOrg()}/originals/samples/astronaut.png`
      const data = bytes(5000)
      await expect(t.storage.put(key, data, { contentType: 'image/png' })).resolves.toEqual({
        size: 5000,
      })
      expect(await t.storage.get(key)).toEqual(data)
      const stat = await t.storage.stat(key)
      expect(stat?.size).toBe(5000)
      expect(stat?.modified).toBeInstanceOf(Date)
      expect(Number.isNaN(stat?.modified.getTime())).toBe(false)
    })

    it('round-trips a Uint8Array view with an offset into a larger buffer', async () => {
      const key = `${uniqueOrg()}/originals/view.bin`
      const whole = bytes(100)
      const view = new Uint8Array(whole.buffer, whole.byteOffset + 10, 20)
      await expect(t.storage.put(key, view)).resolves.toEqual({ size: 20 })
      expect(await t.storage.get(key)).toEqual(whole.subarray(10, 30))
    })

    it('round-trips a Node stream', async () => {
      const key = `${uniqueOrg()}/originals/stream.bin`
      const data = bytes(200_000)
      const source = Readable.from([data.subarray(0, 70_000), data.subarray(70_000)])
      await expect(t.storage.put(key, source)).resolves.toEqual({ size: 200_000 })
      expect(await t.storage.get(key)).toEqual(data)
    })

    it('round-trips an async iterable of chunks', async () => {
      const key = `${uniqueOrg()}/originals/iterable.bin`
      async function* chunks() {
        yield bytes(10, 1)
        yield new Uint8Array()
        yield bytes(15, 2)
      }
      await expect(t.storage.put(key, chunks())).resolves.toEqual({ size: 25 })
      expect(await t.storage.get(key)).toEqual(Buffer.concat([bytes(10, 1), bytes(15, 2)]))
    })

    it('round-trips an empty object', async () => {
      const key = `${uniqueOrg()}/originals/empty`
      await expect(t.storage.put(key, Buffer.alloc(0))).resolves.toEqual({ size: 0 })
      expect(await t.storage.get(key)).toEqual(Buffer.alloc(0))
      expect((await t.storage.stat(key))?.size).toBe(0)
    })

    it('keeps spaces, accents and emoji in keys', async () => {
      const key = `${uniqueOrg()}/originals/my photo été 😀 (1).png`
      await t.storage.put(key, bytes(30))
      expect(await t.storage.get(key)).toEqual(bytes(30))
      expect(await listAll(t.storage, key)).toEqual([key])
    })

    it('replaces an object when putting the same key again', async () => {
      const key = `${uniqueOrg()}/derived/abc.webp`
      await t.storage.put(key, bytes(300, 1))
      await t.storage.put(key, bytes(120, 2))
      expect(await t.storage.get(key)).toEqual(bytes(120, 2))
      expect((await t.storage.stat(key))?.size).toBe(120)
      expect(await listAll(t.storage, key)).toEqual([key])
    })

    it('keeps serving the old object while a new one is being written', async () => {
      const key = `${uniqueOrg()}/derived/in-flight.webp`
      await t.storage.put(key, bytes(100, 1))
      let release = () => {}
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      let reached = () => {}
      const halfway = new Promise<void>((resolve) => {
        reached = resolve
      })
      async function* slowSource() {
        yield bytes(50, 2)
        reached()
        await gate
        yield bytes(50, 3)
      }
      const writing = t.storage.put(key, slowSource())
      await halfway
      expect(await t.storage.get(key)).toEqual(bytes(100, 1))
      expect(await listAll(t.storage, key)).toEqual([key])
      release()
      await expect(writing).resolves.toEqual({ size: 100 })
      expect(await t.storage.get(key)).toEqual(Buffer.concat([bytes(50, 2), bytes(50, 3)]))
    })
  })

  describe('missing objects', () => {
    it('answers undefined from get, stream and stat for a key never written', async () => {
      const key = `${uniqueOrg()}/originals/never.png`
      expect(await t.storage.get(key)).toBeUndefined()
      expect(await t.storage.stream(key)).toBeUndefined()
      expect(await t.storage.stream(key, { start: 0, end: 0 })).toBeUndefined()
      expect(await t.storage.stat(key)).toBeUndefined()
    })

    it('answers undefined for a key below an existing object', async () => {
      const org = uniqueOrg()
      await t.storage.put(`${org}/file`, bytes(5))
      expect(await t.storage.get(`${org}/file/below`)).toBeUndefined()
      expect(await t.storage.stat(`${org}/file/below`)).toBeUndefined()
    })

    it('answers undefined for a key that is only a folder of other keys', async () => {
      const org = uniqueOrg()
      await t.storage.put(`${org}/originals/a.png`, bytes(5))
      expect(await t.storage.get(`${org}/originals`)).toBeUndefined()
      expect(await t.storage.stat(`${org}/originals`)).toBeUndefined()
      expect(await t.storage.stream(`${org}/originals`)).toBeUndefined()
    })
  })

  describe('stream', () => {
    const data = bytes(1000)
    let key: string

    beforeAll(async () => {
      key = `${uniqueOrg()}/originals/ranged.bin`
      await t.storage.put(key, data)
    })

    it('streams the whole object without a range', async () => {
      const result = await t.storage.stream(key)
      expect(result?.size).toBe(1000)
      expect(await buffer(result?.body ?? Readable.from([]))).toEqual(data)
    })

    it.each([
      { name: 'the first bytes', start: 0, end: 9 },
      { name: 'the middle', start: 400, end: 649 },
      { name: 'the last byte', start: 999, end: 999 },
      { name: 'everything as a range', start: 0, end: 999 },
    ])('streams $name of a range and reports the full size', async ({ start, end }) => {
      const result = await t.storage.stream(key, { start, end })
      expect(result?.size).toBe(1000)
      expect(await buffer(result?.body ?? Readable.from([]))).toEqual(data.subarray(start, end + 1))
    })
  })

  describe('delete', () => {
    it('removes an object from get, stat and list', async () => {
      const org = uniqueOrg()
      const key = `${org}/originals/gone.png`
      await t.storage.put(key, bytes(10))
      await t.storage.put(`${org}/originals/kept.png`, bytes(10))
      await t.storage.delete(key)
      expect(await t.storage.get(key)).toBeUndefined()
      expect(await t.storage.stat(key)).toBeUndefined()
      expect(await listAll(t.storage, `${org}/`)).toEqual([`${org}/originals/kept.png`])
    })

    it('accepts a key that does not exist', async () => {
      await expect(t.storage.delete(`${uniqueOrg()}/originals/never.png`)).resolves.toBeUndefined()
    })
  })
})
