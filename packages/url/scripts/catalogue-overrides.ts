// Hand-added ranges and patterns of parameters that the research catalogue (plugins.json) leaves
// open, mostly of AI (slow) operations: without them a value such as `ic.crop(w:-1)` parsed, was
// queued and charged (issue 9). The generator (catalogue-build.ts) lays these over what it reads,
// so regenerating src/catalogue-data.ts keeps them; an entry that matches no parameter fails it.

/** Fields laid over one generated parameter; `why` is for the reader and is not emitted. */
export interface ParamOverride {
  min?: number
  max?: number
  /** A regular expression the whole value must match. */
  pattern?: string
  /** How a refusal of `pattern` describes what was expected. */
  expected?: string
  /** The allowed values of an `enum` parameter, in place of the research catalogue's. */
  enum?: string[]
  why?: string
}

const SEED = { min: 0, max: 2147483647, why: 'a 32-bit seed' }
const PERCENT = { min: 0, max: 100 }
const FRACTION = { min: 0, max: 1 }
const PIXELS = { min: 0, max: 12000, why: "the engine's largest side" }

/** Per operation key (`ic.crop`), per parameter id. */
export const PARAM_OVERRIDES: Record<string, Record<string, ParamOverride>> = {
  'generate.bg': {
    s: SEED,
  },
  'cos.detect': {
    obj_threshold_perc: PERCENT,
  },
  'imc.detect': {
    dist_perc: PERCENT,
  },
  'bg.extend': {
    s: FRACTION,
    gs: PERCENT,
    nis: { min: 1, max: 100 },
    sd: SEED,
  },
  'ic.crop': {
    w: PIXELS,
    h: PIXELS,
    p: PERCENT,
    ar: {
      pattern:
        '(?:(?:\\d*[1-9]\\d*(?:\\.\\d+)?|0+\\.\\d*[1-9]\\d*)(?:_(?:\\d*[1-9]\\d*(?:\\.\\d+)?|0+\\.\\d*[1-9]\\d*))?)?',
      expected: 'a ratio such as 16_9, 2 or 0.25',
      why: 'each side a positive number, as the engine reads it (none: no ratio)',
    },
  },
  'nsfw.detect': {
    m: FRACTION,
  },
  'qr.generate': {
    w: { min: 1, max: 12000 },
    h: { min: 1, max: 12000 },
    m: { min: 0, max: 1000 },
    qt: { min: 0, max: 40 },
    is: FRACTION,
    im: { min: 0, max: 1000 },
  },
  'shadow.gen': {
    a: { min: 0, max: 360 },
    i: FRACTION,
  },
  't.toFormat': {
    f: {
      enum: ['jpeg', 'png', 'webp', 'tiff', 'avif', 'bmp', 'heif', 'gif', 'mp4', 'webm'],
      why: 'GIF, and the video formats of a video or an animation (docs/delivery.md#video)',
    },
  },
  'vg.generate': {
    v: { min: 1, max: 10 },
    s: SEED,
  },
  'vertexAi.generateBG': {
    s: SEED,
    gs: PERCENT,
  },
}
