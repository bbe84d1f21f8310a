import { availableParallelism } from 'node:os'

/** How the AI operations run; read from the environment by `readAiSettings`. */
export interface AiSettings {
  /** Inferences one model runs at once (`AI_CONCURRENCY`); each runs in its own worker thread. */
  concurrency: number
  /** Time limit of one model call (`AI_TIMEOUT_MS`); the worker running it is stopped then. */
  timeoutMs: number
  /** Largest input (width × height) an AI operation accepts (`AI_MAX_INPUT_PIXELS`). */
  maxInputPixels: number
  /**
   * A model's worker thread ends after this long without work (`AI_IDLE_MS`), which frees the
   * model's memory; the next call loads it again.
   */
  idleMs: number
  /** Threads one inference may use inside its worker (`AI_THREADS`). */
  threads: number
}

/** The defaults: one inference per model, a minute per call, 25 megapixels in. */
export const DEFAULT_AI_SETTINGS: Readonly<AiSettings> = {
  concurrency: 1,
  timeoutMs: 60_000,
  maxInputPixels: 25_000_000,
  idleMs: 10 * 60_000,
  threads: availableParallelism(),
}

const VARIABLES: Readonly<Record<keyof AiSettings, string>> = {
  concurrency: 'AI_CONCURRENCY',
  timeoutMs: 'AI_TIMEOUT_MS',
  maxInputPixels: 'AI_MAX_INPUT_PIXELS',
  idleMs: 'AI_IDLE_MS',
  threads: 'AI_THREADS',
}

const RANGES: Readonly<Record<keyof AiSettings, readonly [number, number]>> = {
  concurrency: [1, 64],
  timeoutMs: [100, 3_600_000],
  maxInputPixels: [1, 1_000_000_000],
  idleMs: [100, 86_400_000],
  threads: [1, 256],
}

/**
 * Resolves settings: explicit values win over environment variables, which win over the
 * defaults.
 *
 * @throws {RangeError} for a value that is not a whole number in its range.
 */
export function resolveAiSettings(
  settings: Partial<AiSettings> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): AiSettings {
  const resolved = { ...DEFAULT_AI_SETTINGS }
  for (const key of Object.keys(VARIABLES) as (keyof AiSettings)[]) {
    const text = env[VARIABLES[key]]
    // Digits only, as the server reads its other numbers: `1e3`, `0x10` and `5.0` are mistakes.
    const value =
      settings[key] ??
      (text === undefined || text.trim() === ''
        ? undefined
        : /^\d+$/.test(text.trim())
          ? Number(text.trim())
          : Number.NaN)
    if (value === undefined) continue
    const [min, max] = RANGES[key]
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new RangeError(`${VARIABLES[key]} must be a whole number from ${min} to ${max}`)
    }
    resolved[key] = value
  }
  return resolved
}
