// What the PDF worker is asked and answers (both sides import these shapes).

/** PDF user-space units per inch. */
export const POINTS_PER_INCH = 72

/**
 * The largest page side a PDF may declare: 14,400 units (200 inches), the implementation limit
 * of ISO 32000 (Annex C). Anything larger is refused before it is drawn.
 */
export const MAX_PAGE_SIDE_POINTS = 14_400

/** One job of the worker: read a PDF's page, and draw it when `render` is set. */
export interface PdfRequest {
  bytes: Uint8Array
  /** 1-based. */
  page: number
  dpi: number
  render: boolean
  maxPages: number
  maxPixels: number
}

/** What a PDF holds, as read from it. */
export interface PdfInfo {
  /** Number of pages. */
  pages: number
  /** The page's size in pixels at the asked dpi. */
  width: number
  height: number
  /** The page's size in points (1/72 inch). */
  widthPt: number
  heightPt: number
}

/** A drawn page: 8-bit RGB, rows packed, white where the page paints nothing. */
export interface PdfPixels {
  data: Uint8Array
  width: number
  height: number
  channels: number
}

export type PdfResponse =
  | { ok: true; info: PdfInfo; pixels?: PdfPixels }
  | { ok: false; code: string; message: string }
