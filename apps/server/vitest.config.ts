import { defineConfig } from 'vitest/config'
import { TEST_ENV, TEST_ISOLATE, TEST_WORKERS } from '../../vitest.workers.ts'

export default defineConfig({
  test: {
    name: 'server',
    maxWorkers: TEST_WORKERS,
    isolate: TEST_ISOLATE,
    include: ['src/**/*.test.ts'],
    env: TEST_ENV,
    // Each suite starts a real server (database migrations, demo seed, sharp): on a busy 2-core
    // machine that takes seconds, so the time limits guard against hangs, not slowness.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
