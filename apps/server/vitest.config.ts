import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Each suite starts a real server (database migrations, demo seed, sharp): on a busy 2-core
    // machine that takes seconds, so the time limits guard against hangs, not slowness.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
