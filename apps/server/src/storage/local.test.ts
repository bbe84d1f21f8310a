import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createLocalStorage, type Storage, StorageError } from './index.ts'

let workDir: string
let root: string
let outside: string
let storage: Storage

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'tessera-local-'))
})

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

let run = 0
beforeEach(async () => {
  run++
  root = join(workDir, `root-${run}`)
  outside = join(workDir, `outside-${run}`)
  await mkdir(outside, { recursive: true })
  await writeFile(join(outside, 'secret.txt'), 'outside the root')
  storage = createLocalStorage({ root })
})

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()
}

async function listAll(prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const key of storage.list(prefix)) keys.push(key)
  return keys
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}

async function* chunksThenFail(error: Error): AsyncGenerator<Uint8Array> {
  yield Buffer.alloc(4096, 1)
  throw error
}

describe('local storage', () => {
  it('creates its root on first use and stores each object as a file at its key', async () => {
    await storage.put('orgs/o1/originals/samples/a.png', Buffer.from('png bytes'))
    expect(await readFile(join(root, 'orgs/o1/originals/samples/a.png'), 'utf8')).toBe('png bytes')
  })

  it('leaves no temporary file after a successful put', async () => {
    await storage.put('orgs/o1/a.png', Buffer.from('one'))
    await storage.put('orgs/o1/a.png', Readable.from([Buffer.from('two')]))
    await storage.put('orgs/o1/b.png', Buffer.alloc(0))
    expect(await filesUnder(root)).toEqual(['orgs/o1/a.png', 'orgs/o1/b.png'])
  })

  it('leaves no temporary file after a put fails', async () => {
    await storage.put('orgs/o1/a.png', Buffer.from('old'))
    await rejection(storage.put('orgs/o1/a.png', Buffer.alloc(20), { maxBytes: 10 }))
    await rejection(
      storage.put('orgs/o1/a.png', Readable.from([Buffer.alloc(20)]), { maxBytes: 10 }),
    )
    await rejection(storage.put('orgs/o1/a.png', chunksThenFail(new Error('gone'))))
    await rejection(storage.put('orgs/o1/new.png', chunksThenFail(new Error('gone'))))
    expect(await filesUnder(root)).toEqual(['orgs/o1/a.png'])
    expect(await readFile(join(root, 'orgs/o1/a.png'), 'utf8')).toBe('old')
  })

  it('fails a put over a folder with io_error and leaves the folder and no temporary file', async () => {
    await storage.put('orgs/o1/taken/inside.png', Buffer.from('inside'))
    expect(await rejection(storage.put('orgs/o1/taken', Buffer.from('x')))).toMatchObject({
      code: 'io_error',
    })
    expect(await filesUnder(root)).toEqual(['orgs/o1/taken/inside.png'])
  })

  it('neither lists nor serves a temporary file a crash left behind', async () => {
    await storage.put('orgs/o1/a.png', Buffer.from('whole'))
    const leftover = 'orgs/o1/.a.png.0123456789abcdef.tmp'
    await writeFile(join(root, leftover), 'half')
    expect(await listAll('')).toEqual(['orgs/o1/a.png'])
    expect(await rejection(storage.get(leftover))).toMatchObject({ code: 'invalid_key' })
    expect(await rejection(storage.put(leftover, Buffer.from('x')))).toMatchObject({
      code: 'invalid_key',
    })
  })

  it('removes temporary files older than the given time, and nothing else', async () => {
    await storage.put('a/b/kept.png', Buffer.from('object'))
    const dir = join(root, 'a', 'b')
    const stale = join(dir, '.kept.png.0123456789abcdef.tmp')
    const fresh = join(dir, '.other.png.fedcba9876543210.tmp')
    await writeFile(stale, 'crashed write')
    await writeFile(fresh, 'write in progress')
    // An object whose name merely ends in .tmp is not a temporary file.
    await storage.put('a/old.tmp', Buffer.from('an object'))
    const hourAgo = new Date(Date.now() - 60 * 60_000)
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000)
    await utimes(stale, twoHoursAgo, twoHoursAgo)
    await utimes(join(root, 'a', 'old.tmp'), twoHoursAgo, twoHoursAgo)
    expect(await storage.removeStaleTemporaries(hourAgo)).toBe(1)
    expect(await filesUnder(root)).toEqual([
      join('a', 'b', '.other.png.fedcba9876543210.tmp'),
      join('a', 'b', 'kept.png'),
      join('a', 'old.tmp'),
    ])
  })

  it('lists keys in UTF-8 byte order, as S3 does', async () => {
    const keys = ['a-c', 'a/b', 'a/c/d', 'a0', 'b', 'é', '😀', '\uff01']
    for (const key of [...keys].reverse()) await storage.put(key, Buffer.from(key))
    expect(await listAll('')).toEqual(['a-c', 'a/b', 'a/c/d', 'a0', 'b', 'é', '\uff01', '😀'])
  })

  it('answers undefined for a folder and leaves it alone on delete', async () => {
    await storage.put('orgs/o1/originals/a.png', Buffer.from('a'))
    await storage.delete('orgs/o1/originals')
    expect(await storage.get('orgs/o1/originals/a.png')).toEqual(Buffer.from('a'))
  })

  it('refuses to store below an existing object with io_error', async () => {
    await storage.put('orgs/o1/a.png', Buffer.from('a'))
    const error = await rejection(storage.put('orgs/o1/a.png/b.png', Buffer.from('b')))
    expect(error).toBeInstanceOf(StorageError)
    expect(error).toMatchObject({ code: 'io_error' })
    expect((error as Error).message).not.toContain(root)
  })

  describe('symlinks', () => {
    it('refuses every method through a folder symlink that points outside the root', async () => {
      await mkdir(join(root, 'orgs'), { recursive: true })
      await symlink(outside, join(root, 'orgs/evil'))
      const calls: [string, () => Promise<unknown>][] = [
        ['get', () => storage.get('orgs/evil/secret.txt')],
        ['stream', () => storage.stream('orgs/evil/secret.txt')],
        ['stat', () => storage.stat('orgs/evil/secret.txt')],
        ['delete', () => storage.delete('orgs/evil/secret.txt')],
        ['put', () => storage.put('orgs/evil/planted.txt', Buffer.from('x'))],
        ['put deeper', () => storage.put('orgs/evil/new/planted.txt', Buffer.from('x'))],
        ['put a stream', () => storage.put('orgs/evil/s.txt', Readable.from([Buffer.from('x')]))],
      ]
      for (const [method, call] of calls) {
        const error = await rejection(call())
        expect(error, method).toBeInstanceOf(StorageError)
        expect(error, method).toMatchObject({ code: 'invalid_key' })
      }
      expect(await filesUnder(outside)).toEqual(['secret.txt'])
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside the root')
      expect(await listAll('')).toEqual([])
    })

    it('refuses a put into a folder written before and since replaced by a symlink outside', async () => {
      await storage.put('orgs/o1/derived/a.png', Buffer.from('first'))
      await rm(join(root, 'orgs/o1/derived'), { recursive: true })
      await symlink(outside, join(root, 'orgs/o1/derived'))
      const error = await rejection(storage.put('orgs/o1/derived/b.png', Buffer.from('second')))
      expect(error).toMatchObject({ code: 'invalid_key' })
      expect(await filesUnder(outside)).toEqual(['secret.txt'])
    })

    it('refuses a file symlink that points outside the root', async () => {
      await mkdir(join(root, 'orgs/o1'), { recursive: true })
      await symlink(join(outside, 'secret.txt'), join(root, 'orgs/o1/link.txt'))
      for (const call of [
        () => storage.get('orgs/o1/link.txt'),
        () => storage.stream('orgs/o1/link.txt', { start: 0, end: 3 }),
        () => storage.stat('orgs/o1/link.txt'),
      ]) {
        expect(await rejection(call())).toMatchObject({ code: 'invalid_key' })
      }
    })

    it('serves an object through a symlink that stays inside the root', async () => {
      await storage.put('orgs/o1/real.png', Buffer.from('inside'))
      await symlink(join(root, 'orgs/o1/real.png'), join(root, 'orgs/o1/alias.png'))
      expect(await storage.get('orgs/o1/alias.png')).toEqual(Buffer.from('inside'))
    })
  })

  it('leaves only whole objects and temporary files when its process is killed while writing', async () => {
    // A child writes distinct 200 KB objects two at a time (on the write threads) and says so
    // after each; it is killed with SIGKILL once some are written, in the middle of others.
    const script = `
      const { createLocalStorage } = await import(${JSON.stringify(new URL('./index.ts', import.meta.url).href)})
      const storage = createLocalStorage({ root: ${JSON.stringify(root)} })
      await storage.put('orgs/o1/derived/first.bin', Buffer.alloc(1, 1))
      let next = 0
      const loop = async () => {
        for (;;) {
          const id = next++
          await storage.put('orgs/o1/derived/' + id + '.bin', Buffer.alloc(200_000, id % 251))
          process.stdout.write(id + '\\n')
        }
      }
      await Promise.all([loop(), loop()])
    `
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let written = 0
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        written += String(chunk).split('\n').filter(Boolean).length
        if (written >= 20) resolve()
      })
      child.on('exit', () => resolve())
    })
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    expect(written).toBeGreaterThanOrEqual(20)
    const files = await filesUnder(join(root, 'orgs/o1/derived'))
    for (const file of files) {
      const bytes = await readFile(join(root, 'orgs/o1/derived', file))
      if (/^\..*\.tmp$/.test(file)) continue
      if (file === 'first.bin') continue
      const id = Number(file.replace('.bin', ''))
      expect(bytes.length, file).toBe(200_000)
      expect(
        bytes.every((byte) => byte === id % 251),
        file,
      ).toBe(true)
    }
    expect(await listAll('orgs/o1/derived/')).toHaveLength(
      files.filter((file) => !file.startsWith('.')).length,
    )
  })

  describe('an unusable root', () => {
    beforeEach(async () => {
      await writeFile(root, 'a file where the folder should be')
    })

    it('fails its check with not_reachable', async () => {
      const error = await rejection(storage.check())
      expect(error).toBeInstanceOf(StorageError)
      expect(error).toMatchObject({ code: 'not_reachable' })
    })

    it('fails every operation with not_reachable', async () => {
      for (const call of [
        () => storage.get('a.png'),
        () => storage.put('a.png', Buffer.from('x')),
        () => listAll(''),
      ]) {
        expect(await rejection(call())).toMatchObject({ code: 'not_reachable' })
      }
    })

    it('recovers once the folder can be created', async () => {
      await rejection(storage.check())
      await rm(root)
      await expect(storage.check()).resolves.toBeUndefined()
      await storage.put('a.png', Buffer.from('x'))
      expect(await storage.get('a.png')).toEqual(Buffer.from('x'))
    })
  })
})
