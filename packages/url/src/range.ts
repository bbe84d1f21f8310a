// HTTP byte ranges: shared by the server's delivery of originals and the website's static files
// (videos need them: Safari plays none without 206 answers).

/** An inclusive byte range within a file. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * Reads a `Range: bytes=…` header for a file of `size` bytes (RFC 9110 §14.1.2). One range is
 * served; a header this server does not understand is ignored (undefined → the whole file), and
 * a range that cannot be satisfied answers 'unsatisfiable' (→ 416).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (match === null) return undefined
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return undefined
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (end < start) return 'unsatisfiable'
  return { start, end }
}
