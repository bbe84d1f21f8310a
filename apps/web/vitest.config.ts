import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: '@tessera/web',
    include: ['app/**/*.test.ts', 'src/**/*.test.ts', 'e2e/**/*.test.ts'],
    // The browser tests drive the production build: build it once before any test runs.
    globalSetup: ['./e2e/build.setup.ts'],
    // Each browser suite starts a real server and Chromium on a busy 2-core machine: the limits
    // guard against hangs, not slowness.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
})
