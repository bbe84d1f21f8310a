import type { OperationSpec, ParamValue } from '@tessera/url'
import { EngineError, MESSAGES } from './errors.ts'

/** A colour as sharp reads it: channels 0–255, alpha 0–1. */
export interface Colour {
  r: number
  g: number
  b: number
  alpha: number
}

/** Transparent black, the background of overlay canvases. */
export const TRANSPARENT: Readonly<Colour> = { r: 0, g: 0, b: 0, alpha: 0 }

/**
 * Reads the language's colour (6 or 8 hex digits, no `#`).
 *
 * @returns undefined for anything else.
 */
export function readColour(hex: string): Colour | undefined {
  if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(hex)) return undefined
  const byte = (at: number) => Number.parseInt(hex.slice(at, at + 2), 16)
  return { r: byte(0), g: byte(2), b: byte(4), alpha: hex.length === 8 ? byte(6) / 255 : 1 }
}

/** Typed access to one operation's parameters; a wrong type is an `invalid_param` error. */
export interface Params {
  integer(id: string): number
  number(id: string): number
  string(id: string): string
  boolean(id: string): boolean
  colour(id: string): Colour
  /** A `bbox` value (4 numbers), or undefined when the parameter is not set. */
  box(id: string): number[] | undefined
  /** A `bboxList` value, or an empty list. */
  boxes(id: string): number[][]
  /** A `polygonList` value, or an empty list. */
  polygons(id: string): number[][][]
}

function isNumberList(value: unknown, length?: number): value is number[] {
  return (
    Array.isArray(value) &&
    (length === undefined || value.length === length) &&
    value.every((item) => typeof item === 'number' && Number.isFinite(item))
  )
}

/**
 * Wraps the typed values of a parsed operation. A parameter missing from `values` falls back to
 * its catalogue default, so hand-built operations work too.
 */
export function createParams(spec: OperationSpec, values: Record<string, ParamValue>): Params {
  const read = (id: string): unknown =>
    Object.hasOwn(values, id) ? values[id] : spec.params.find((param) => param.id === id)?.default
  const fail = (id: string, expected: string): never => {
    throw new EngineError('invalid_param', MESSAGES.invalidParam(spec.key, id, expected))
  }
  const number = (id: string): number => {
    const value = read(id)
    return typeof value === 'number' && Number.isFinite(value) ? value : fail(id, 'a number')
  }
  return {
    number,
    integer: (id) => {
      const value = number(id)
      return Number.isInteger(value) ? value : fail(id, 'an integer')
    },
    string: (id) => {
      const value = read(id)
      if (value === null || value === undefined) return ''
      return typeof value === 'string' ? value : fail(id, 'text')
    },
    boolean: (id) => {
      const value = read(id)
      return typeof value === 'boolean' ? value : fail(id, 'true or false')
    },
    colour: (id) => {
      const value = read(id)
      return (typeof value === 'string' ? readColour(value) : undefined) ?? fail(id, 'a hex colour')
    },
    box: (id) => {
      const value = read(id)
      if (value === null || value === undefined || value === '') return undefined
      return isNumberList(value, 4) ? value : fail(id, '4 numbers')
    },
    boxes: (id) => {
      const value = read(id)
      if (value === null || value === undefined || value === '') return []
      return Array.isArray(value) && value.every((box) => isNumberList(box, 4))
        ? (value as number[][])
        : fail(id, 'a list of boxes of 4 numbers')
    },
    polygons: (id) => {
      const value = read(id)
      if (value === null || value === undefined || value === '') return []
      return Array.isArray(value) &&
        value.every(
          (polygon) =>
            Array.isArray(polygon) &&
            polygon.length >= 3 &&
            polygon.every((point) => isNumberList(point, 2)),
        )
        ? (value as number[][][])
        : fail(id, 'a list of polygons of at least 3 [x_y] points')
    },
  }
}
