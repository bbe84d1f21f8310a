import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Test files run in parallel: most of a server or browser suite's time is spent waiting (for a
// database, a socket, Chromium, sharp's threads), so more workers than cores pays even on this
// 2-core machine, where Vitest's default (cores - 1) would run one file after another.
// TEST_WORKERS overrides it (docs/decisions/012-test-layout.md).
const workers = Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism() + 1))

export default defineConfig({
  test: {
    // Before any test: PostgreSQL and Chromium are there, or one line says what to install.
    globalSetup: ['./scripts/test-prerequisites.ts'],
    maxWorkers: workers,
    projects: [
      'packages/*',
      // The web app's unit tests (apps/web/vitest.config.ts) and the server's.
      'apps/*',
      // The browser suites, apart: only they wait for the web build.
      'apps/web/vitest.e2e.config.ts',
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          // The cluster suite runs alone: `npm run test:cluster` (vitest.cluster.config.ts).
          exclude: ['scripts/cluster/**'],
        },
      },
    ],
  },
})
