import { defineConfig } from 'vitest/config'
import { TEST_ISOLATE, TEST_WORKERS } from '../../vitest.workers.ts'

// The web app's unit tests (libraries, components): no build, no server, no browser. The browser
// suites and the tests of the production build are the `web-e2e` project (vitest.e2e.config.ts),
// so these never wait for the build.
export default defineConfig({
  test: {
    name: 'web',
    maxWorkers: TEST_WORKERS,
    isolate: TEST_ISOLATE,
    include: ['app/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['src/production-react.test.ts'],
  },
})
