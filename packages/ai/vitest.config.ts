import { defineConfig } from 'vitest/config'
import { TEST_ENV, TEST_ISOLATE, TEST_WORKERS } from '../../vitest.workers.ts'

export default defineConfig({
  test: {
    name: 'ai',
    maxWorkers: TEST_WORKERS,
    // Model workers stay loaded from file to file of a worker (each model loads once per worker).
    isolate: TEST_ISOLATE,
    include: ['src/**/*.test.ts'],
    env: TEST_ENV,
  },
})
