import { defineConfig } from 'vitest/config'
import { TEST_ENV, TEST_ISOLATE, TEST_WORKERS } from '../../vitest.workers.ts'

export default defineConfig({
  test: {
    name: 'engine',
    maxWorkers: TEST_WORKERS,
    isolate: TEST_ISOLATE,
    // Image work is CPU-bound: beside two other test files on a busy 2-core machine it takes
    // several times its quiet duration. The limit guards against hangs.
    testTimeout: 30_000,
    include: ['src/**/*.test.ts'],
    env: TEST_ENV,
  },
})
