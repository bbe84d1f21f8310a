// How test files are scheduled. How many run at once, for the root config and every project's config (a project in
// its own config file does not inherit the root's maxWorkers, and Vitest refuses projects with
// different maxWorkers in one run). Most of a server or browser suite's time is spent waiting (for
// a database, a socket, Chromium, sharp's threads), so more workers than cores pays even on a
// 2-core machine, where Vitest's default (cores - 1) runs one file after another. TEST_WORKERS
// overrides it (docs/decisions/012-test-layout.md).
import { availableParallelism } from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

export const TEST_WORKERS = Number(
  process.env.TEST_WORKERS ?? Math.max(2, availableParallelism() + 1),
)

// What a file of each project took on average in a full run (docs/benchmarks.md, "Test suite
// time"), in ms: the estimate for a file the run cache has no duration for (a fresh clone).
const FILE_MS_BY_PROJECT: Record<string, number> = {
  ai: 56_000,
  'web-e2e': 51_000,
  server: 7_600,
  engine: 2_800,
  url: 900,
}

/**
 * Longest files first across every project, so that no long file starts last and runs alone at
 * the end. Vitest's own order runs the projects one after another by name, which put the browser
 * suites — the longest files — at the end.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Within a project, Vitest's order: failed first, then by last duration, or by size.
    const byProject = await super.sort(files)
    const estimate = (spec: TestSpecification) =>
      this.ctx.cache.getTestSpecificationResult(spec)?.duration ??
      FILE_MS_BY_PROJECT[spec.project.name] ??
      100
    return byProject
      .map((spec, index) => ({ spec, index, ms: estimate(spec) }))
      .sort((a, b) => b.ms - a.ms || a.index - b.index)
      .map(({ spec }) => spec)
  }
}

/**
 * Whether each test file gets a fresh module graph. Off for the projects whose files share no
 * module state (the server, the engine, the URL language, media, the web app's unit tests): with
 * isolation every file re-evaluates the whole server graph, which measured 2.2× the CPU of the
 * same files run without it (decision 012). The AI suites (model workers) and the browser suites
 * stay isolated. TEST_ISOLATE=1 turns isolation back on everywhere, to hunt a leak between files.
 */
export const TEST_ISOLATE = process.env.TEST_ISOLATE === '1'

/**
 * What every test process has in its environment. `AI_THREADS=1`: an inference runs on one
 * thread of onnxruntime's and TensorFlow's pools, not one per core. Three test files run at once
 * on two cores, where a second thread per inference mostly spins and waits: the AI project alone
 * measured 77 s of CPU with two threads and 69 s with one, for the same tests. The product's
 * default (one thread per core) is unchanged; `AI_THREADS` set outside wins.
 */
export const TEST_ENV: Record<string, string> = { AI_THREADS: process.env.AI_THREADS ?? '1' }
