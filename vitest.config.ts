import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Before any test: PostgreSQL and Chromium are there, or one line says what to install.
    globalSetup: ['./scripts/test-prerequisites.ts'],
    projects: [
      'packages/*',
      'apps/*',
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
