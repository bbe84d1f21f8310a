import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  rm,
  unlink,
  writeFile,
} from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { type Intake, intake, isBytes, putFailure, tooLarge } from './body.ts'
import { errorCode, StorageError } from './errors.ts'
import { assertValidKey, assertValidPrefix, isValidKey } from './keys.ts'
import { isInside, isMissing } from './local-paths.ts'
import { THREAD_WRITE_MAX_BYTES, writeOnThread } from './local-writer.ts'
import type { ByteRange, PutData, PutOptions, Storage, StoredObject } from './types.ts'

function ioError(action: string, key: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error
  return new StorageError('io_error', `Could not ${action} (${errorCode(error) ?? 'error'})`, {
    key,
    cause: error,
  })
}

function outsideRoot(key: string): StorageError {
  return new StorageError('invalid_key', 'Invalid storage key: it resolves outside the root', {
    key,
  })
}

/** `.<name>.<16 hex>.tmp`: hidden, unique, recognisable after a crash (see TEMP_SEGMENT). */
function tempName(name: string): string {
  const stem = Array.from(name).slice(0, 32).join('')
  return `.${stem}.${randomBytes(8).toString('hex')}.tmp`
}

/** What tempName makes; a valid key never starts with a dot, so no object looks like this. */
const TEMP_NAME = /^\..*\.[0-9a-f]{16}\.tmp$/u

/** Byte order of UTF-8, the order S3 lists keys in. */
function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable. Not every platform can fsync a directory (Windows cannot);
  // the write is still atomic without it, only a crash right now might bring the old object back.
  let handle: FileHandle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // best effort, see above
  } finally {
    await handle?.close()
  }
}

/**
 * Storage in a folder of the local file system (default `./data/storage`). A key is a path
 * below `root`; every resolved path, after following symlinks, must stay inside `root`. The
 * folder is created on first use. Lists in UTF-8 byte order, like S3.
 */
export function createLocalStorage(options: { root: string }): Storage {
  const configuredRoot = resolve(options.root)
  let rootPromise: Promise<string> | undefined

  async function openRoot(): Promise<string> {
    await mkdir(configuredRoot, { recursive: true })
    return realpath(configuredRoot)
  }

  /** The real path of the root, created if needed; cached once it worked. */
  function root(): Promise<string> {
    rootPromise ??= openRoot().catch((error: unknown) => {
      rootPromise = undefined
      throw new StorageError('not_reachable', 'The storage folder cannot be opened', {
        cause: error,
      })
    })
    return rootPromise
  }

  function lexicalPath(rootPath: string, key: string): string {
    const path = join(rootPath, ...key.split('/'))
    if (!isInside(rootPath, path) || path === rootPath) throw outsideRoot(key)
    return path
  }

  /** The real path of an existing object, or `undefined` when nothing is there. */
  async function existingPath(key: string): Promise<string | undefined> {
    assertValidKey(key)
    const rootPath = await root()
    let real: string
    try {
      real = await realpath(lexicalPath(rootPath, key))
    } catch (error) {
      if (isMissing(error)) return undefined
      throw ioError('resolve the key', key, error)
    }
    if (!isInside(rootPath, real) || real === rootPath) throw outsideRoot(key)
    return real
  }

  /** The real folder that holds `key` (or would), or `undefined` when it does not exist. */
  async function existingParent(key: string): Promise<{ dir: string; name: string } | undefined> {
    assertValidKey(key)
    const rootPath = await root()
    const path = lexicalPath(rootPath, key)
    let dir: string
    try {
      dir = await realpath(dirname(path))
    } catch (error) {
      if (isMissing(error)) return undefined
      throw ioError('resolve the key', key, error)
    }
    if (!isInside(rootPath, dir)) throw outsideRoot(key)
    return { dir, name: basename(path) }
  }

  /** Creates the folders of `key` and returns the real one, refusing any that leads outside. */
  async function writableParent(key: string): Promise<{ dir: string; name: string }> {
    assertValidKey(key)
    const rootPath = await root()
    const path = lexicalPath(rootPath, key)
    const lexicalDir = dirname(path)
    // Check the deepest folder that exists before mkdir: a symlink there would otherwise make
    // mkdir create folders outside the root.
    for (let dir = lexicalDir; ; dir = dirname(dir)) {
      let real: string
      try {
        real = await realpath(dir)
      } catch (error) {
        if (isMissing(error) && dir !== rootPath) continue
        throw ioError('resolve the key', key, error)
      }
      if (!isInside(rootPath, real)) throw outsideRoot(key)
      break
    }
    let dir: string
    try {
      await mkdir(lexicalDir, { recursive: true })
      dir = await realpath(lexicalDir)
    } catch (error) {
      throw ioError('create the folders of the key', key, error)
    }
    if (!isInside(rootPath, dir)) throw outsideRoot(key)
    return { dir, name: basename(path) }
  }

  /**
   * Writes `data` at `key` on a write thread: true once durable, false when `put` must write it
   * itself (its folder is missing, or no thread could).
   */
  async function putOnThread(key: string, data: Uint8Array): Promise<boolean> {
    assertValidKey(key)
    const rootPath = await root()
    const path = lexicalPath(rootPath, key)
    const name = basename(path)
    // The message copies a view's whole buffer: a part of a larger one (a pooled Buffer, a slice
    // of a request's body) goes as a copy of its own bytes.
    const bytes =
      data.byteLength === data.buffer.byteLength ? data : Uint8Array.prototype.slice.call(data)
    const written = await writeOnThread({
      root: rootPath,
      dir: dirname(path),
      name,
      temp: tempName(name),
      data: bytes,
    })
    if (written.outcome === 'written') return true
    if (written.outcome === 'missing' || written.outcome === 'unavailable') return false
    if (written.outcome === 'outside') throw outsideRoot(key)
    const cause = Object.assign(new Error(written.message), { code: written.code })
    throw ioError(written.step === 'resolve' ? 'resolve the key' : 'write the object', key, cause)
  }

  async function openObject(
    key: string,
  ): Promise<{ handle: FileHandle; size: number } | undefined> {
    const path = await existingPath(key)
    if (path === undefined) return undefined
    let handle: FileHandle
    try {
      // O_NONBLOCK: opening a FIFO someone left in the folder must not block a libuv thread.
      handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    } catch (error) {
      if (isMissing(error)) return undefined
      throw ioError('open the object', key, error)
    }
    try {
      const stats = await handle.stat()
      if (stats.isFile()) return { handle, size: stats.size }
    } catch (error) {
      await handle.close()
      throw ioError('open the object', key, error)
    }
    await handle.close()
    return undefined
  }

  async function writeTemp(
    temp: string,
    key: string,
    data: PutData,
    maxBytes: number | undefined,
    state: Intake | undefined,
  ): Promise<number> {
    if (isBytes(data)) {
      if (maxBytes !== undefined && data.byteLength > maxBytes) throw tooLarge(key, maxBytes)
      await writeFile(temp, data, { flag: 'wx', flush: true })
      return data.byteLength
    }
    if (state === undefined) throw new TypeError('a streaming put needs its intake')
    // Open first, so the file exists before any data flows and the caller's rm after a failure
    // cannot race an open still in flight. writeFile awaits each write before it pulls the next
    // chunk (backpressure) and, when a write fails, ends the iteration, which destroys the source.
    // (A write stream on the handle would keep it referenced and its close() pending forever.)
    const handle = await open(temp, 'wx')
    try {
      await handle.writeFile(state.chunks)
      await handle.sync()
    } finally {
      await handle.close()
    }
    return state.size
  }

  return {
    kind: 'local',

    async put(key: string, data: PutData, options: PutOptions = {}): Promise<{ size: number }> {
      if (isBytes(data) && data.byteLength <= THREAD_WRITE_MAX_BYTES) {
        if (options.maxBytes !== undefined && data.byteLength > options.maxBytes) {
          throw tooLarge(key, options.maxBytes)
        }
        // The same steps on a write thread (local-writer.ts). A folder that does not exist yet
        // (each folder created is checked) or a write no thread could take is made below.
        if (await putOnThread(key, data)) return { size: data.byteLength }
      }
      const state = isBytes(data) ? undefined : intake(data, key, options.maxBytes)
      let temp: string | undefined
      try {
        const { dir, name } = await writableParent(key)
        // Write a temporary file beside the target, fsync it, then rename it over the target.
        // rename within one folder is atomic on POSIX file systems, so readers see the old
        // object or the whole new one, and a crash leaves at most an unlisted temporary file.
        temp = join(dir, tempName(name))
        const size = await writeTemp(temp, key, data, options.maxBytes, state)
        await rename(temp, join(dir, name))
        await syncDirectory(dir)
        return { size }
      } catch (error) {
        // The write's own error is what matters; a temp file left behind by a failing rm is
        // never listed nor served, because its name is not a valid key.
        if (temp !== undefined) await rm(temp, { force: true }).catch(() => undefined)
        throw putFailure(error, state, (cause) => ioError('write the object', key, cause))
      }
    },

    async get(key: string): Promise<Buffer | undefined> {
      const opened = await openObject(key)
      if (opened === undefined) return undefined
      try {
        return await opened.handle.readFile()
      } catch (error) {
        throw ioError('read the object', key, error)
      } finally {
        await opened.handle.close()
      }
    },

    async stream(key: string, range?: ByteRange) {
      // One handle for stat and read, so a concurrent put (a rename) cannot mix two versions.
      const opened = await openObject(key)
      if (opened === undefined) return undefined
      const body = opened.handle.createReadStream(
        range === undefined ? {} : { start: range.start, end: range.end },
      )
      // The reader listens too; this one only keeps a read error from ending the process when a
      // reader has not attached yet (or never does). The stream still closes its file.
      body.on('error', () => undefined)
      return { body, size: opened.size }
    },

    async stat(key: string): Promise<StoredObject | undefined> {
      const opened = await openObject(key)
      if (opened === undefined) return undefined
      try {
        const stats = await opened.handle.stat()
        return { size: stats.size, modified: stats.mtime }
      } catch (error) {
        throw ioError('read the object', key, error)
      } finally {
        await opened.handle.close()
      }
    },

    async delete(key: string): Promise<void> {
      const parent = await existingParent(key)
      if (parent === undefined) return
      const path = join(parent.dir, parent.name)
      try {
        if ((await lstat(path)).isDirectory()) return
        await unlink(path)
      } catch (error) {
        if (!isMissing(error)) throw ioError('delete the object', key, error)
      }
    },

    async *list(prefix: string): AsyncIterable<string> {
      assertValidPrefix(prefix)
      const rootPath = await root()

      async function* walk(dir: string, keyPrefix: string): AsyncGenerator<string> {
        let entries: { name: string; isDirectory(): boolean; isFile(): boolean }[]
        try {
          entries = await readdir(dir, { withFileTypes: true })
        } catch (error) {
          if (isMissing(error)) return
          throw ioError('list the objects', prefix, error)
        }
        // Sorting folders as `name/` makes this depth-first walk yield keys in byte order.
        const sorted = entries
          .filter((entry) => entry.isDirectory() || entry.isFile())
          .map((entry) => ({
            entry,
            sortName: entry.isDirectory() ? `${entry.name}/` : entry.name,
          }))
          .sort((a, b) => compareNames(a.sortName, b.sortName))
        for (const { entry } of sorted) {
          const key = `${keyPrefix}${entry.name}`
          // Symlinks are neither files nor folders here, so the walk never leaves the root.
          if (entry.isDirectory()) {
            const folder = `${key}/`
            if (folder.startsWith(prefix) || prefix.startsWith(folder)) {
              yield* walk(join(dir, entry.name), folder)
            }
          } else if (key.startsWith(prefix) && isValidKey(key)) {
            yield key
          }
        }
      }

      yield* walk(rootPath, '')
    },

    async removeStaleTemporaries(olderThan: Date): Promise<number> {
      const rootPath = await root()
      let removed = 0
      async function sweep(dir: string): Promise<void> {
        let entries: { name: string; isDirectory(): boolean; isFile(): boolean }[]
        try {
          entries = await readdir(dir, { withFileTypes: true })
        } catch (error) {
          if (isMissing(error)) return
          throw ioError('list the temporary files', '', error)
        }
        for (const entry of entries) {
          const path = join(dir, entry.name)
          if (entry.isDirectory()) {
            await sweep(path)
            continue
          }
          if (!entry.isFile() || !TEMP_NAME.test(entry.name)) continue
          try {
            // A write still in progress keeps touching its file, so only a quiet one goes.
            if ((await lstat(path)).mtime >= olderThan) continue
            await unlink(path)
            removed++
          } catch (error) {
            if (!isMissing(error)) throw ioError('delete a temporary file', '', error)
          }
        }
      }
      await sweep(rootPath)
      return removed
    },

    async check(): Promise<void> {
      try {
        const rootPath = await openRoot()
        const probe = join(rootPath, tempName('check'))
        await writeFile(probe, 'ok', { flag: 'wx' })
        await unlink(probe)
      } catch (error) {
        throw new StorageError('not_reachable', 'The storage folder is not writable', {
          cause: error,
        })
      }
    },
  }
}
