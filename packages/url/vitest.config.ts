import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'url',
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
  },
})
