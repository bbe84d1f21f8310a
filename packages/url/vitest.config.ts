import { defineConfig } from 'vitest/config'
import { TEST_ISOLATE, TEST_WORKERS } from '../../vitest.workers.ts'

export default defineConfig({
  test: {
    name: 'url',
    maxWorkers: TEST_WORKERS,
    isolate: TEST_ISOLATE,
    // The property and fuzz tests are CPU-bound: beside two other test files on a busy 2-core
    // machine they take several times their quiet duration. The limit guards against hangs.
    testTimeout: 30_000,
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
  },
})
