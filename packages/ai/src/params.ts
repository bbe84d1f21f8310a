/** A colour: channels 0–255, alpha 0–1. */
export interface AiColour {
  r: number
  g: number
  b: number
  alpha: number
}

/**
 * Typed access to one operation's parameters, defaults applied; a wrong type throws. The
 * engine's `Params` has this shape.
 */
export interface AiParams {
  integer(id: string): number
  number(id: string): number
  string(id: string): string
  boolean(id: string): boolean
  colour(id: string): AiColour
}
