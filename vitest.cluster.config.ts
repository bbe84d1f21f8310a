// `npm run test:cluster`: the cluster suite (scripts/cluster), apart from `npm test` because it
// starts PostgreSQL, s3rver, three servers and HAProxy and takes minutes.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['scripts/cluster/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
})
