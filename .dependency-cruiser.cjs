// The server's layout rules (docs/ARCHITECTURE.md, docs/decisions/007-server-layout.md), checked
// by `npm run depcheck` as the first step of `npm test`. Paths are relative to the repository
// root. Tests and test support may import anything they exercise; every other file keeps to the
// rules below.
//
// Folders of apps/server/src:
//   (root)   main, server, services, features, config, context, app, openapi, index, test support
//   config/  the parts of config.ts (variables, the settings' shape, defaults), behind it
//   http/    edge helpers: errors, bodies, queries, text rules, traversal, web mount, OpenAPI kit
//   platform/ jobs, lookups, caches, logger, metrics, housekeeping, rate limits
//   db/ storage/  the database and the object store
//   feature folders: every other folder (delivery/ assets/ accounts/ billing/ playground/ …),
//   read from the tree itself so a new folder is checked without an edit here
// A feature's route modules are `routes.ts` and `*-routes.ts`; its OpenAPI parts `openapi.ts` and
// `*-openapi.ts`.

const { readdirSync } = require('node:fs')
const { join } = require('node:path')

const SRC = '^apps/server/src/'
/** The layers under the features; every other folder of the server's source is a feature. */
const LAYERS = new Set(['config', 'http', 'platform', 'db', 'storage'])
// From the working directory, as dependency-cruiser reads paths (the repository root, or a
// throwaway tree of the layout test).
const FEATURE_NAMES = readdirSync(join(process.cwd(), 'apps/server/src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.has(entry.name))
  .map((entry) => entry.name)
  .sort()
const FEATURES = `(${FEATURE_NAMES.join('|')})`
const TESTS =
  '(\\.test\\.ts$|-suite\\.ts$|^apps/server/src/test-(server|client|suite)\\.ts$|/test-database\\.ts$)'
const ROUTES = `${SRC}${FEATURES}/[a-z-]*routes\\.ts$`
const OPENAPI_PART = `${SRC}${FEATURES}/[a-z-]*openapi\\.ts$`

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: the modules on it cannot be loaded, tested or moved alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'only-server-wires',
      severity: 'error',
      comment:
        'app.ts, openapi.ts and services.ts are assembled by server.ts (and re-exported by index.ts) only.',
      from: { path: SRC, pathNot: [`${SRC}(server|index)\\.ts$`, TESTS] },
      to: { path: `${SRC}(app|openapi|services)\\.ts$` },
    },
    {
      name: 'feature-services-wired-once',
      severity: 'error',
      comment:
        "features.ts builds the features' shared services once: services.ts calls it, app.ts hands them to the routes.",
      from: { path: SRC, pathNot: [`${SRC}(services|app)\\.ts$`, TESTS] },
      to: { path: `${SRC}features\\.ts$` },
    },
    {
      name: 'context-holds-no-feature-types',
      severity: 'error',
      comment:
        "context.ts is what every feature reads: it names no feature's types but the content files' (the site is built from them).",
      from: { path: `${SRC}context\\.ts$` },
      to: { path: `${SRC}${FEATURES}/`, pathNot: `${SRC}content/content\\.ts$` },
    },
    {
      name: 'delivery-below-its-users',
      severity: 'error',
      comment:
        'Delivery is what the playground, files, transformations and predictions build on: it imports none of them (it tells of a new AI render instead of taking the allowance; `isImageFormat` is in @tessera/url).',
      from: { path: `${SRC}delivery/`, pathNot: TESTS },
      to: { path: `${SRC}(playground|assets|transformation|predictions|accounts|content)/` },
    },
    {
      name: 'routes-only-from-app',
      severity: 'error',
      comment: "A feature's routes are mounted by app.ts; no other file of the root imports them.",
      from: { path: `${SRC}[^/]+\\.ts$`, pathNot: [`${SRC}app\\.ts$`, TESTS] },
      to: { path: ROUTES },
    },
    {
      name: 'not-another-features-routes',
      severity: 'error',
      comment: "A feature may use another feature's domain modules, never its routes.",
      from: { path: `${SRC}${FEATURES}/`, pathNot: TESTS },
      to: { path: ROUTES, pathNot: `${SRC}$1/` },
    },
    {
      name: 'domain-below-routes',
      severity: 'error',
      comment:
        'Inside a feature, only route modules import route modules: rules never know HTTP routes.',
      from: { path: `${SRC}${FEATURES}/`, pathNot: [ROUTES, TESTS] },
      to: { path: `${SRC}$1/[a-z-]*routes\\.ts$` },
    },
    {
      name: 'openapi-parts-only-from-openapi',
      severity: 'error',
      comment:
        "A feature's OpenAPI parts are assembled by openapi.ts (and the feature's own parts).",
      from: { path: SRC, pathNot: [`${SRC}openapi\\.ts$`, OPENAPI_PART, TESTS] },
      to: { path: OPENAPI_PART },
    },
    {
      name: 'not-another-features-openapi',
      severity: 'error',
      comment: "A feature's OpenAPI part describes its own calls only.",
      from: { path: OPENAPI_PART },
      to: { path: OPENAPI_PART, pathNot: `${SRC}$1/` },
    },
    {
      name: 'features-stay-off-the-root',
      severity: 'error',
      comment:
        'Features, http/ and platform/ import context.ts and config.ts from the root, nothing else there.',
      from: { path: `${SRC}(${FEATURES.slice(1, -1)}|http|platform)/`, pathNot: TESTS },
      to: { path: `${SRC}[^/]+\\.ts$`, pathNot: `${SRC}(context|config)\\.ts$` },
    },
    {
      name: 'platform-below-http',
      severity: 'error',
      comment: 'platform/ runs without HTTP: it never imports http/ or a feature.',
      from: { path: `${SRC}platform/` },
      to: { path: [`${SRC}http/`, `${SRC}${FEATURES}/`] },
    },
    {
      name: 'http-below-features',
      severity: 'error',
      comment: 'http/ holds edge helpers every feature may use: it never imports a feature.',
      from: { path: `${SRC}http/` },
      to: { path: `${SRC}${FEATURES}/` },
    },
    {
      name: 'config-behind-config-ts',
      severity: 'error',
      comment:
        'config/ holds the parts of config.ts: only config.ts imports them, and they import only each other.',
      from: { path: SRC, pathNot: [`${SRC}config(\\.ts$|/)`, TESTS] },
      to: { path: `${SRC}config/` },
    },
    {
      name: 'config-imports-no-server-module',
      severity: 'error',
      comment: 'The settings are read before anything runs: config/ imports no server module.',
      from: { path: `${SRC}config/` },
      to: { path: SRC, pathNot: `${SRC}config/` },
    },
    {
      name: 'db-and-storage-at-the-bottom',
      severity: 'error',
      comment: 'db/ and storage/ are the bottom floor: each imports only itself.',
      from: { path: `${SRC}(db|storage)/`, pathNot: TESTS },
      to: { path: SRC, pathNot: `${SRC}$1/` },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    includeOnly: '^apps/server/src/',
  },
}
