import { defineConfig } from 'vitest/config'
import { TEST_ENV, TEST_ISOLATE, TEST_WORKERS } from '../../vitest.workers.ts'

// The web app's browser suites (e2e/) and the test of what the production build renders: they
// run against the build, made while the other projects' tests run (e2e/build.setup.ts).
export default defineConfig({
  test: {
    name: 'web-e2e',
    maxWorkers: TEST_WORKERS,
    // A worker runs file after file with the server's modules, Playwright, the harness and one
    // Chromium loaded once (`workerBrowser`); each file still starts its own server.
    isolate: TEST_ISOLATE,
    include: ['e2e/**/*.test.ts', 'src/production-react.test.ts'],
    env: TEST_ENV,
    globalSetup: ['./e2e/build.setup.ts'],
    // Each browser suite starts a real server and Chromium on a busy 2-core machine: the limits
    // guard against hangs, not slowness (and the first suites wait for the build).
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
