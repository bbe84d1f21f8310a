import { defineConfig } from 'vitest/config'
import { TEST_WORKERS } from '../../vitest.workers.ts'

export default defineConfig({
  test: {
    name: 'ai',
    maxWorkers: TEST_WORKERS,
    include: ['src/**/*.test.ts'],
  },
})
