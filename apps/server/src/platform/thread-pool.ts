// libuv's thread pool, sized before anything uses it. Every sharp pipeline runs on it (one
// libvips thread each, `ENGINE_CONCURRENCY` at once), and so does every file operation of a
// derived image's write (mkdir, realpath, open, write, fsync, rename, the folder's fsync). With
// libuv's default of 4 and 2 × cores pipelines, a slow fsync held a thread a render was waiting
// for (docs/decisions/014-cold-delivery.md). libuv reads the variable once, when the pool first
// starts, so this module is imported first by main.ts; a value set in the environment wins.
import { availableParallelism } from 'node:os'

/** Threads kept for file I/O, DNS and crypto beside the engine's pipelines. */
export const IO_THREADS = 4
/** libuv's own ceiling. */
const MAX_POOL = 1024

/** The pool size for `env`: the engine's pipelines plus `IO_THREADS`, unless already set. */
export function threadPoolSize(env: NodeJS.ProcessEnv, cores = availableParallelism()): number {
  const given = Number(env.UV_THREADPOOL_SIZE)
  if (Number.isInteger(given) && given >= 1) return Math.min(given, MAX_POOL)
  const engine = Number(env.ENGINE_CONCURRENCY)
  const pipelines = Number.isInteger(engine) && engine >= 1 ? engine : 2 * cores
  return Math.min(pipelines + IO_THREADS, MAX_POOL)
}

process.env.UV_THREADPOOL_SIZE = String(threadPoolSize(process.env))
