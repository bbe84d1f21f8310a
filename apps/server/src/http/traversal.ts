// The traversal guard: refused before routing, because a parsed URL has already resolved `..`.
import { HttpError } from './errors.ts'

/**
 * Refuses `..`, `.`, backslashes and encoded separators in a raw request path: no stored path has
 * them, and a client that sends them is probing for traversal.
 *
 * @throws {HttpError} 400 `invalid_path`.
 */
export function assertNoTraversal(rawPath: string): void {
  const lower = rawPath.toLowerCase()
  if (
    rawPath.includes('\\') ||
    lower.includes('%5c') ||
    lower.includes('%2f') ||
    lower.includes('%00') ||
    rawPath.split('/').some((segment) => {
      const decoded = segment.toLowerCase().replaceAll('%2e', '.')
      return decoded === '.' || decoded === '..'
    })
  ) {
    throw new HttpError(400, 'invalid_path', 'Path traversal is not allowed in delivery URLs')
  }
}
