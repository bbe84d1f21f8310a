// What the HEIC worker is asked and answers (both sides import these shapes).

export interface HeicRequest {
  bytes: Uint8Array
  /** Decode the pixels, or only read the size. */
  decode: boolean
  maxPixels: number
}

/** Decoded pixels: 8-bit RGB (opaque images) or RGBA, rows packed. */
export interface HeicPixels {
  data: Uint8Array
  width: number
  height: number
  channels: 3 | 4
}

export type HeicResponse =
  | { ok: true; width: number; height: number; pixels?: HeicPixels }
  | { ok: false; code: string; message: string }
