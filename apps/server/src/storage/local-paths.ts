// Path rules local storage shares with its write thread (local.ts, local-write-thread.ts).
import { isAbsolute, relative, sep } from 'node:path'
import { errorCode } from './errors.ts'

/** Errors meaning "there is no such object here". */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR'])

export function isMissing(error: unknown): boolean {
  return MISSING.has(errorCode(error) ?? '')
}

/** Whether `path` is `root` or below it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}
