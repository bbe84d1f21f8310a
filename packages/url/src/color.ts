import { isDecimalText, isHexColorText } from './chars.ts'
import { describeType, IllegalArgumentError, MESSAGES } from './errors.ts'

function toHexByte(value: number): string {
  return value.toString(16).padStart(2, '0')
}

function readAlpha(alpha: number | string): number {
  if (typeof alpha !== 'number' && typeof alpha !== 'string')
    throw new IllegalArgumentError(MESSAGES.alpha)
  const text = typeof alpha === 'number' ? String(alpha) : alpha.trim()
  const isPercent = text.endsWith('%')
  const digits = isPercent ? text.slice(0, -1) : text
  const value = isDecimalText(digits) ? Number(digits) : Number.NaN
  if (isPercent && value >= 0 && value <= 100) return Math.round((255 * value) / 100)
  if (!isPercent && value >= 0 && value <= 1) return Math.round(255 * value)
  throw new IllegalArgumentError(MESSAGES.alpha)
}

function readChannel(value: number | string): number {
  let number = Number.NaN
  if (typeof value === 'number') number = value
  else if (typeof value === 'string' && isDecimalText(value.trim())) number = Number(value)
  if (!(number >= 0 && number <= 255)) throw new IllegalArgumentError(MESSAGES.rgb)
  return Math.round(number)
}

/**
 * Converts red, green and blue (0–255) and an optional alpha (a fraction 0–1, or a percentage
 * text such as `'50%'`) to the hex colour the language uses, without `#`: 6 digits, or 8 with
 * alpha.
 *
 * @throws {IllegalArgumentError} 'Expected three numbers below 256' or 'Expected alpha value as a
 *   fraction or percentage'.
 * @example rgbToHex(255, 0, 0, 0.5) // 'ff000080'
 */
export function rgbToHex(
  red: number | string,
  green: number | string,
  blue: number | string,
  alpha?: number | string,
): string {
  const rgb =
    toHexByte(readChannel(red)) + toHexByte(readChannel(green)) + toHexByte(readChannel(blue))
  return alpha === undefined ? rgb : rgb + toHexByte(readAlpha(alpha))
}

/**
 * Reads a colour written as `rgb(r, g, b)`, `rgba(r, g, b, a)`, `rgb(r g b / a%)`, `#rrggbb`,
 * `#rgb` or bare 6/8-digit hex, and returns the language's hex form (lower-case, no `#`).
 *
 * @throws {IllegalArgumentError} for an unreadable colour or a component out of range.
 * @example parseColor('rgba(0, 128, 255, 50%)') // '0080ff80'
 */
export function parseColor(text: string): string {
  if (typeof text !== 'string')
    throw new IllegalArgumentError(MESSAGES.colorFormat(describeType(text)))
  const value = text.trim().toLowerCase()
  const hex = value.startsWith('#') ? value.slice(1) : value
  if (isHexColorText(hex)) return hex
  if (
    value.startsWith('#') &&
    (hex.length === 3 || hex.length === 4) &&
    isHexColorText(hex.repeat(2))
  ) {
    return [...hex].map((digit) => digit + digit).join('')
  }
  const open = value.indexOf('(')
  const name = value.slice(0, open)
  if (open === -1 || !value.endsWith(')') || (name !== 'rgb' && name !== 'rgba')) {
    throw new IllegalArgumentError(MESSAGES.colorFormat(text.slice(0, 64)))
  }
  const inner = value.slice(open + 1, -1)
  const [channels = '', alpha] = inner.includes('/') ? inner.split('/') : [inner]
  const parts = channels.split(/[\s,]+/).filter((part) => part !== '')
  if (alpha === undefined && parts.length === 4)
    return rgbToHex(parts[0] as string, parts[1] as string, parts[2] as string, parts[3])
  if (parts.length !== 3) throw new IllegalArgumentError(MESSAGES.rgb)
  const [red, green, blue] = parts as [string, string, string]
  return rgbToHex(red, green, blue, alpha?.trim())
}
