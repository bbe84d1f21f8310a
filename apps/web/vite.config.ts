import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { precompress } from './src/precompress.ts'

// SPEC §9: static assets are served under the prefix /static/ (content-hashed, so the server
// can cache them for a year). Text assets get brotli and gzip copies beside them at build time.
export default defineConfig({
  plugins: [reactRouter(), precompress()],
  build: { assetsDir: 'static' },
})
