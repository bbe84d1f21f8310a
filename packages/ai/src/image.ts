/** Decoded 8-bit pixels, unpremultiplied, rows top to bottom. */
export interface AiImage {
  data: Uint8Array
  width: number
  height: number
  channels: 1 | 2 | 3 | 4
}

/** A box in pixels: left, top, width, height. */
export interface Box {
  left: number
  top: number
  width: number
  height: number
}
