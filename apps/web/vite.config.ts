import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { precompress } from './src/precompress.ts'

/**
 * The app's own small modules that the root and the site layout load on every page: one chunk
 * instead of a dozen (each file costs a round trip on a slow phone before the first paint).
 * Only these modules, not what they import (React and React Router keep their own chunks).
 */
const SHELL_MODULES =
  /\/app\/(lib\/(app-context|runtime-config|session|links|images|nav|docs-nav|integrations\/(route-errors|script-loader))|components\/(icons|nav-link|use-page-location))\.tsx?$/

// SPEC §9: static assets are served under the prefix /static/ (content-hashed, so the server
// can cache them for a year). Text assets get brotli and gzip copies beside them at build time.
export default defineConfig({
  plugins: [
    reactRouter(),
    precompress(),
    {
      // A group that leaves dependencies out needs entry chunks that may export more than the
      // module did; React Router asks for exactly its exports, so this comes after it.
      name: 'tessera-entry-signatures',
      applyToEnvironment: (environment) => environment.name === 'client',
      options(options) {
        return { ...options, preserveEntrySignatures: 'allow-extension' }
      },
    },
  ],
  build: { assetsDir: 'static' },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [{ name: 'shell', test: SHELL_MODULES }],
            },
          },
        },
      },
    },
  },
})
