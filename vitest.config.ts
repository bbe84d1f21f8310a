import { defineConfig } from 'vitest/config'
import { LongestFirst, TEST_WORKERS } from './vitest.workers.ts'

export default defineConfig({
  test: {
    // Before any test: PostgreSQL and Chromium are there, or one line says what to install.
    globalSetup: ['./scripts/test-prerequisites.ts'],
    // Files in parallel (vitest.workers.ts); each project's config sets the same.
    maxWorkers: TEST_WORKERS,
    // Longest files first across the projects, not project by project.
    sequence: { sequencer: LongestFirst },
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
