// libuv's pool is sized for the engine's pipelines plus file I/O (thread-pool.ts), unless the
// environment sets it; main.ts imports the module first, so the size applies before any use.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { IO_THREADS, threadPoolSize } from './thread-pool.ts'

describe('the size of libuv thread pool', () => {
  it('is two pipelines per core plus the I/O threads by default', () => {
    expect(threadPoolSize({}, 2)).toBe(4 + IO_THREADS)
    expect(threadPoolSize({}, 8)).toBe(16 + IO_THREADS)
  })

  it('follows ENGINE_CONCURRENCY when it is set', () => {
    expect(threadPoolSize({ ENGINE_CONCURRENCY: '6' }, 2)).toBe(6 + IO_THREADS)
  })

  it('keeps a UV_THREADPOOL_SIZE given in the environment, within libuv ceiling', () => {
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '3', ENGINE_CONCURRENCY: '6' }, 2)).toBe(3)
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '5000' }, 2)).toBe(1024)
  })

  it('ignores values that are not whole numbers of at least one', () => {
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: 'many', ENGINE_CONCURRENCY: '0' }, 2)).toBe(
      4 + IO_THREADS,
    )
  })

  it('is set by the first import of the entry point, before anything can start the pool', () => {
    const main = readFileSync(new URL('../main.ts', import.meta.url), 'utf8')
    const firstImport = main.split('\n').find((line) => line.startsWith('import '))
    expect(firstImport).toBe("import './platform/thread-pool.ts'")
  })
})
