// The limits of an SVG input, checked before librsvg parses it: rendering holds every element in
// memory (about 6 KB each, measured), and the declared size is what it rasterises to.
import { EngineError, MESSAGES } from './errors.ts'
import type { EngineOptions } from './options.ts'

const LESS_THAN = 0x3c
const isLetter = (byte: number) => (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a

/**
 * The start tags in an SVG document's bytes (`<` then a letter), counted in one pass without
 * parsing. Markup inside comments or CDATA is counted too, so the count never undercounts.
 */
export function countSvgElements(input: Uint8Array, stopAfter = Number.POSITIVE_INFINITY): number {
  let count = 0
  let from = 0
  for (;;) {
    const at = input.indexOf(LESS_THAN, from)
    if (at === -1 || at + 1 >= input.length) return count
    if (isLetter(input[at + 1] as number)) {
      count++
      if (count > stopAfter) return count
    }
    from = at + 1
  }
}

/** Whether bytes may be an SVG document (markup first, an `<svg` near the start). */
export function mayBeSvg(input: Buffer): boolean {
  const head = input.subarray(0, 4096).toString('latin1')
  return /^\s*(\ufeff)?</.test(head) && /<svg[\s>]/i.test(head)
}

/**
 * Refuses markup with more elements than the options allow; run before sharp reads the
 * header, since reading an SVG's size already parses the whole document.
 *
 * @throws {EngineError} `too_many_pixels`
 */
export function checkSvgElements(
  input: Buffer,
  options: Pick<EngineOptions, 'maxSvgElements'>,
): void {
  const elements = countSvgElements(input, options.maxSvgElements)
  if (elements > options.maxSvgElements) {
    throw new EngineError('too_many_pixels', MESSAGES.svgTooManyElements(options.maxSvgElements))
  }
}

/**
 * Refuses an SVG that would rasterise to more pixels than the options allow.
 *
 * @throws {EngineError} `too_many_pixels`
 */
export function checkSvgPixels(
  width: number,
  height: number,
  options: Pick<EngineOptions, 'maxSvgPixels'>,
): void {
  const pixels = width * height
  if (pixels > options.maxSvgPixels) {
    throw new EngineError(
      'too_many_pixels',
      MESSAGES.svgTooManyPixels(pixels, options.maxSvgPixels),
    )
  }
}
