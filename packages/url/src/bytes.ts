import { describeType, IllegalArgumentError, MESSAGES } from './errors.ts'

/** Units of `formatBytes`, in 1024 steps. */
export const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const
/** Bytes in one MB (1024 × 1024). */
export const BYTES_PER_MB = 1048576

/**
 * Formats a byte count for people, in 1024 steps from Bytes to YB (SPEC §9).
 *
 * @param decimals Digits after the point; trailing zeros are dropped. Default 2.
 * @throws {IllegalArgumentError} when `bytes` is not a finite number.
 * @example formatBytes(1536) // '1.5 KB'
 */
export function formatBytes(bytes: number, decimals = 2): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) {
    throw new IllegalArgumentError(
      MESSAGES.bytesInvalid(typeof bytes === 'number' ? String(bytes) : describeType(bytes)),
    )
  }
  if (bytes === 0) return '0 Bytes'
  const digits = Number.isInteger(decimals) && decimals > 0 ? Math.min(decimals, 20) : 0
  const size = Math.abs(bytes)
  const step =
    size < 1 ? 0 : Math.min(Math.floor(Math.log(size) / Math.log(1024)), BYTE_UNITS.length - 1)
  const value = Number.parseFloat((size / 1024 ** step).toFixed(digits))
  return `${bytes < 0 ? '-' : ''}${value} ${BYTE_UNITS[step]}`
}

/** Converts bytes to MB (divides by 1048576). */
export function bytesToMb(bytes: number): number {
  return bytes / BYTES_PER_MB
}
