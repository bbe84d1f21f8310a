// The write thread of local storage (local-writer.ts): writes an object's bytes durably with
// synchronous calls, one write after another. The steps and the symlink check are those of
// local.ts's `put`, in the same order: the real folder, inside the root; a temporary file beside
// the target written whole and fsynced; the rename over the target; the folder's fsync.
import {
  closeSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { parentPort } from 'node:worker_threads'
import { errorCode } from './errors.ts'
import { isInside, isMissing } from './local-paths.ts'
import type { ThreadWrite, ThreadWritten } from './local-writer.ts'

function syncDirectory(dir: string): void {
  // Best effort, as in local.ts: not every platform can fsync a folder.
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // see above
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

function failed(step: 'resolve' | 'write', error: unknown): ThreadWritten {
  const code = errorCode(error)
  return {
    outcome: 'failed',
    step,
    message: error instanceof Error ? error.message : String(error),
    ...(code === undefined ? {} : { code }),
  }
}

export function writeDurably(request: ThreadWrite): ThreadWritten {
  let dir: string
  try {
    // The system's realpath(3), as local.ts's `realpath` of node:fs/promises calls it.
    dir = realpathSync.native(request.dir)
  } catch (error) {
    // The folder is made by local.ts's own path, which checks every folder it creates.
    return isMissing(error) ? { outcome: 'missing' } : failed('resolve', error)
  }
  if (!isInside(request.root, dir)) return { outcome: 'outside' }
  const temp = join(dir, request.temp)
  try {
    writeFileSync(temp, request.data, { flag: 'wx', flush: true })
    renameSync(temp, join(dir, request.name))
  } catch (error) {
    // The write's own error is what matters; a temporary file left behind is never listed nor
    // served (its name is not a valid key), and is swept later.
    try {
      rmSync(temp, { force: true })
    } catch {
      // see above
    }
    return failed('write', error)
  }
  syncDirectory(dir)
  return { outcome: 'written' }
}

parentPort?.on('message', (message: ThreadWrite & { id: number }) => {
  let written: ThreadWritten
  try {
    written = writeDurably(message)
  } catch (error) {
    written = failed('write', error)
  }
  parentPort?.postMessage({ id: message.id, written })
})
