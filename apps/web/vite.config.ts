import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// SPEC §9: static assets are served under the prefix /static/ (content-hashed, so the server
// can cache them for a year).
export default defineConfig({
  plugins: [reactRouter()],
  build: { assetsDir: 'static' },
})
