// A tiled mark is the same words repeated in parallel rows, evenly spaced: the OCR reads some of
// them (a light mark over a busy photo is read in pieces), and the rows it found give the rest —
// their slant, their height and the spacing between them. Each row is followed across the image
// and kept, piece by piece, where it holds more of the mark's strokes than the photo just above
// and below it (between the rows, where the mark is not).
type Point = readonly [number, number]
type Quad = readonly Point[]

// Lines of one tiled mark lean the same way (degrees) and are about as tall (a factor).
const SAME_SLANT = 4
const SAME_HEIGHT = 2.2
// A row is looked at in pieces this many line heights long.
const PIECE = 4
// A piece is the mark's when its share of stroke pixels is at least this much more than the
// share beside the row, and at least this share of the rows the OCR read.
const OVER_BESIDE = 0.1
const OF_READ = 0.4

interface Row {
  /** Unit vector along the text, and across it (top to bottom of the letters). */
  along: Point
  across: Point
  height: number
  /** The lines (indices) on the rows. */
  members: number[]
  /** Offset across of a row's middle, and the spacing of the rows (undefined: one row). */
  origin: number
  spacing: number | undefined
}

/** The mean of a polygon's corners (an OCR line's centre). */
export function centre(quad: Quad): [number, number] {
  let x = 0
  let y = 0
  for (const [px, py] of quad) {
    x += px / quad.length
    y += py / quad.length
  }
  return [x, y]
}

function measure(quad: Quad) {
  const [a = [0, 0], b = [0, 0], c = [0, 0], d = [0, 0]] = quad
  const length = Math.hypot(b[0] - a[0], b[1] - a[1])
  const height = (Math.hypot(d[0] - a[0], d[1] - a[1]) + Math.hypot(c[0] - b[0], c[1] - b[1])) / 2
  return { slant: Math.atan2(b[1] - a[1], b[0] - a[0]), length, height }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/**
 * The rows of a tiled mark among the lines read: the largest set of lines (two or more, each at
 * least twice as long as tall) of one slant and about one height, and the spacing of their rows
 * (the largest spacing that puts every line on a row). Undefined when no line repeats.
 */
export function markRows(lines: readonly Quad[]): Row | undefined {
  const measured = lines
    .map((quad, index) => ({ ...measure(quad), index, quad }))
    .filter((line) => line.length >= 2 * line.height)
  let best: typeof measured = []
  for (const seed of measured) {
    const group = measured.filter((line) => {
      const turn = Math.abs(line.slant - seed.slant) * (180 / Math.PI)
      const ratio = Math.max(line.height, seed.height) / Math.min(line.height, seed.height)
      return turn <= SAME_SLANT && ratio <= SAME_HEIGHT
    })
    if (group.length > best.length) best = group
  }
  if (best.length < 2) return undefined
  const slant = median(best.map((line) => line.slant))
  const height = median(best.map((line) => line.height))
  const along: Point = [Math.cos(slant), Math.sin(slant)]
  const across: Point = [-along[1], along[0]]
  const middles = best.map(({ quad }) => {
    const [x, y] = centre(quad)
    return x * across[0] + y * across[1]
  })
  const spacing = rowSpacing(middles, height)
  return {
    along,
    across,
    height,
    members: best.map((line) => line.index),
    ...rowOffsets(middles, spacing, height),
  }
}

/** The largest spacing that puts every pair of lines on rows a whole number of spacings apart
 * (within a quarter of a line height), at least one and a half line heights; undefined when
 * every line is on one row. */
function rowSpacing(middles: readonly number[], height: number): number | undefined {
  const gaps: number[] = []
  for (let i = 0; i < middles.length; i++) {
    for (let j = i + 1; j < middles.length; j++) {
      const gap = Math.abs((middles[i] as number) - (middles[j] as number))
      if (gap > height / 2) gaps.push(gap)
    }
  }
  let best: { spacing: number; fits: number } | undefined
  for (const gap of gaps) {
    for (let k = 1; k <= 4; k++) {
      const spacing = gap / k
      if (spacing < 1.5 * height) break
      let fits = 0
      for (const other of gaps) {
        const rows = other / spacing
        if (Math.abs(rows - Math.round(rows)) * spacing <= height / 4) fits++
      }
      if (
        best === undefined ||
        fits > best.fits ||
        (fits === best.fits && spacing > best.spacing)
      ) {
        best = { spacing, fits }
      }
    }
  }
  return best?.spacing
}

/** The rows' middles: the lines' own, and every spacing from them (a least-squares fit of a
 * row's middle and the spacing). */
function rowOffsets(middles: readonly number[], spacing: number | undefined, height: number) {
  if (spacing === undefined) return { origin: median(middles), spacing }
  const first = Math.min(...middles)
  const steps = middles.map((middle) => Math.round((middle - first) / spacing))
  const n = middles.length
  const meanStep = steps.reduce((sum, step) => sum + step, 0) / n
  const meanMiddle = middles.reduce((sum, middle) => sum + middle, 0) / n
  let covariance = 0
  let variance = 0
  steps.forEach((step, index) => {
    covariance += (step - meanStep) * ((middles[index] as number) - meanMiddle)
    variance += (step - meanStep) ** 2
  })
  const fitted = variance > 0 ? covariance / variance : spacing
  // A fit pulled far from the spacing by one odd line is not trusted.
  const step = Math.abs(fitted - spacing) <= height / 4 ? fitted : spacing
  return { origin: meanMiddle - step * meanStep, spacing: step }
}

interface Tally {
  /** Per row and piece, pixels and strokes: in the row's band, and beside it. */
  inside: Float64Array
  beside: Float64Array
}

/** Counts, per row and piece, the pixels and strokes in the rows' bands and beside them (from
 * `near` to `far` across from a row's middle). One pass over the image. */
function tally(
  row: Row,
  rows: readonly number[],
  stroke: Uint8Array,
  size: { width: number; height: number },
  cut: { start: number; piece: number; pieces: number },
  [near, far]: readonly [number, number],
): Tally {
  const { along, across } = row
  const { start, piece, pieces } = cut
  const spacing = rows.length > 1 ? (rows[1] as number) - (rows[0] as number) : 4 * row.height
  const first = rows[0] as number
  const inside = new Float64Array(rows.length * pieces * 2)
  const beside = new Float64Array(rows.length * pieces * 2)
  for (let y = 0; y < size.height; y++) {
    for (let x = 0; x < size.width; x++) {
      const t = (x + 0.5) * across[0] + (y + 0.5) * across[1]
      const k = Math.round((t - first) / spacing)
      if (k < 0 || k >= rows.length) continue
      const off = Math.abs(t - (rows[k] as number))
      const s = (x + 0.5) * along[0] + (y + 0.5) * along[1]
      const m = Math.max(0, Math.min(pieces - 1, Math.floor((s - start) / piece)))
      const cell = 2 * (k * pieces + m)
      const on = stroke[y * size.width + x] === 0 ? 0 : 1
      const counts = off <= row.height / 2 ? inside : off >= near && off <= far ? beside : undefined
      if (counts === undefined) continue
      counts[cell] = (counts[cell] as number) + 1
      counts[cell + 1] = (counts[cell + 1] as number) + on
    }
  }
  return { inside, beside }
}

function share(counts: Float64Array, cell: number): number {
  return (counts[2 * cell + 1] as number) / Math.max(1, counts[2 * cell] as number)
}

/** The middles of the rows `spacing` apart that cross the image (across from `low` to `high`). */
function rowsAcross(origin: number, spacing: number, band: number, [low, high]: number[]) {
  // [low, high]: the image's extent across the rows.
  const rows: number[] = []
  const from = Math.ceil(((low as number) - band - origin) / spacing)
  for (let k = from; origin + k * spacing - band <= (high as number); k++) {
    rows.push(origin + k * spacing)
  }
  return rows
}

/**
 * The spacing of the rows: the lines read may be two or three rows apart, so a finer spacing
 * (an integer part, still one and a half line heights or more) is taken when the rows it adds
 * hold more strokes than the photo midway between the rows.
 */
function finest(
  row: Row,
  spacing: number,
  stroke: Uint8Array,
  size: { width: number; height: number },
  acrosses: number[],
  floor: number,
): number {
  const band = row.height
  for (const parts of [4, 3, 2]) {
    const finer = spacing / parts
    if (finer < 1.5 * band) continue
    const rows = rowsAcross(row.origin, finer, band, acrosses)
    if (rows.length > 256) continue
    const cut = { start: 0, piece: Number.POSITIVE_INFINITY, pieces: 1 }
    const counts = tally(row, rows, stroke, size, cut, [finer / 2 - band / 4, finer / 2])
    let added = [0, 0, 0, 0]
    rows.forEach((middle, k) => {
      if (Math.abs(Math.round((middle - row.origin) / finer)) % parts === 0) return
      added = [
        (added[0] as number) + (counts.inside[2 * k] as number),
        (added[1] as number) + (counts.inside[2 * k + 1] as number),
        (added[2] as number) + (counts.beside[2 * k] as number),
        (added[3] as number) + (counts.beside[2 * k + 1] as number),
      ]
    })
    const inside = share(Float64Array.from(added.slice(0, 2)), 0)
    const beside = share(Float64Array.from(added.slice(2)), 0)
    if (inside >= floor && inside - beside >= OVER_BESIDE) return finer
  }
  return spacing
}

/**
 * The pieces of a tiled mark's rows that hold its strokes, as quads (corners clockwise from the
 * top left, as the OCR gives a line). `stroke` is set where a pixel stands out from its
 * neighbourhood as the mark does. One pass over the image.
 */
export function rowPieces(
  row: Row,
  stroke: Uint8Array,
  width: number,
  height: number,
  read: readonly Quad[],
): Quad[] {
  const { along, across } = row
  const band = row.height
  const piece = PIECE * band
  const size = { width, height }
  const corners: Point[] = [
    [0, 0],
    [width, 0],
    [0, height],
    [width, height],
  ]
  const alongs = corners.map(([x, y]) => x * along[0] + y * along[1])
  const reach = corners.map(([x, y]) => x * across[0] + y * across[1])
  const acrosses = [Math.min(...reach), Math.max(...reach)]
  const start = Math.min(...alongs)
  const pieces = Math.ceil((Math.max(...alongs) - start) / piece)
  const cut = { start, piece, pieces }
  const besides: [number, number] = [0.75 * band, 1.25 * band]
  // The rows read give the share of strokes the mark has here.
  const readShares = (rows: readonly number[]) => {
    const counts = tally(row, rows, stroke, size, cut, besides)
    const shares: number[] = []
    for (const quad of read) {
      const [x, y] = centre(quad)
      const t = x * across[0] + y * across[1]
      const k =
        rows.length > 1
          ? Math.round((t - (rows[0] as number)) / ((rows[1] as number) - (rows[0] as number)))
          : 0
      const m = Math.floor((x * along[0] + y * along[1] - start) / piece)
      if (k < 0 || k >= rows.length || m < 0 || m >= pieces) continue
      if ((counts.inside[2 * (k * pieces + m)] as number) > 0) {
        shares.push(share(counts.inside, k * pieces + m))
      }
    }
    return { counts, shares }
  }
  const first = rowsAcross(row.origin, row.spacing ?? 4 * band, band, acrosses)
  if (pieces > 256 || first.length > 256) return []
  let { counts, shares } = readShares(first)
  if (shares.length === 0) return []
  const floor = OF_READ * median(shares)
  let rows = row.spacing === undefined ? [row.origin] : first
  if (row.spacing !== undefined) {
    const spacing = finest(row, row.spacing, stroke, size, acrosses, floor)
    if (spacing !== row.spacing) {
      rows = rowsAcross(row.origin, spacing, band, acrosses)
      counts = tally(row, rows, stroke, size, cut, besides)
    }
  } else counts = tally(row, rows, stroke, size, cut, besides)
  const { inside, beside } = counts
  const quadOf = (k: number, from: number, to: number): Quad => {
    const middle = rows[k] as number
    const at = (s: number, t: number): Point => [
      s * along[0] + t * across[0],
      s * along[1] + t * across[1],
    ]
    const a = start + from * piece
    const b = start + to * piece
    return [
      at(a, middle - band / 2),
      at(b, middle - band / 2),
      at(b, middle + band / 2),
      at(a, middle + band / 2),
    ]
  }
  const out: Quad[] = []
  for (let k = 0; k < rows.length; k++) {
    let run = -1
    for (let m = 0; m <= pieces; m++) {
      const cell = k * pieces + m
      const kept =
        m < pieces &&
        (inside[2 * cell] as number) > band &&
        share(inside, cell) >= floor &&
        share(inside, cell) - share(beside, cell) >= OVER_BESIDE
      if (kept && run < 0) run = m
      if (!kept && run >= 0) {
        out.push(quadOf(k, run, m))
        run = -1
      }
    }
  }
  return out
}
