// The layout rules of `.dependency-cruiser.cjs` (`npm run depcheck`, docs/decisions/007): the
// real tree keeps them, and each rule refuses a small tree that breaks it on purpose. And the
// size rule: no source file of the server over 400 lines.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const CONFIG = join(ROOT, '.dependency-cruiser.cjs')
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')

interface Violation {
  from: string
  to: string
  rule: { name: string }
}

/**
 * Runs the check in `cwd` over its `apps/server/src`; answers the rules it reports broken. The
 * config reads the feature folders from `cwd`'s tree.
 */
function depcheck(cwd: string): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, '--config', CONFIG, '--output-type', 'json', 'apps/server/src'],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      // The command exits with the number of errors: the JSON on stdout is the answer either way.
      (error, stdout) => {
        try {
          const result = JSON.parse(stdout) as { summary: { violations: Violation[] } }
          resolve(result.summary.violations)
        } catch {
          reject(error ?? new Error('dependency-cruiser printed no JSON'))
        }
      },
    )
  })
}

const made: string[] = []
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true })
})

/** A throwaway repository root holding `files` under `apps/server/src/`. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tessera-layout-'))
  made.push(root)
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, 'apps/server/src', path)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, text)
  }
  return root
}

const uses = (...paths: string[]) =>
  `${paths.map((path, i) => `import { x as x${i} } from '${path}'`).join('\n')}\nexport const x = 1\n`

/** A small tree that keeps every rule; each case below breaks one. */
const GOOD: Record<string, string> = {
  'server.ts': uses('./app.ts', './services.ts', './openapi.ts', './config.ts'),
  'app.ts': uses(
    './context.ts',
    './delivery/routes.ts',
    './billing/routes.ts',
    './http/errors.ts',
    './features.ts',
  ),
  'openapi.ts': uses('./billing/openapi.ts'),
  'services.ts': uses('./delivery/delivery.ts', './platform/jobs.ts', './features.ts'),
  'features.ts': uses('./billing/credits.ts', './context.ts'),
  'config.ts': uses(),
  'context.ts': uses('./config.ts', './platform/logger.ts', './db/index.ts'),
  'http/errors.ts': uses(),
  'platform/jobs.ts': uses('./logger.ts', '../db/index.ts'),
  'platform/logger.ts': uses('../config.ts'),
  'db/index.ts': uses('./schema.ts'),
  'db/schema.ts': uses(),
  'delivery/routes.ts': uses('./delivery.ts', '../http/errors.ts'),
  'delivery/delivery.ts': uses('../billing/credits.ts', '../context.ts', '../platform/jobs.ts'),
  'billing/routes.ts': uses('./credits.ts', './checkout-routes.ts'),
  'billing/checkout-routes.ts': uses('./credits.ts'),
  'billing/credits.ts': uses('../http/errors.ts', '../db/index.ts'),
  'billing/openapi.ts': uses('../http/errors.ts'),
}

/** Every source file of the server below `dir` (tests and test support aside). */
async function sourcesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !/\.test\.ts$|[/\\]test-(server|client|database)\.ts$/.test(path))
}

describe('the size rule', () => {
  it('keeps every source file of the server within 400 lines (split by concern)', async () => {
    const over: string[] = []
    for (const path of await sourcesUnder(join(ROOT, 'apps/server/src'))) {
      const lines = (await readFile(path, 'utf8')).split('\n').length - 1
      if (lines > 400) over.push(`${path.slice(ROOT.length)}: ${lines} lines`)
    }
    expect(over).toEqual([])
  })
})

describe('the layout check', () => {
  it('passes on the server as it is', async () => {
    expect(await depcheck(ROOT)).toEqual([])
  }, 60_000)

  it('passes on a small tree that keeps the rules', async () => {
    expect(await depcheck(await tree(GOOD))).toEqual([])
  }, 60_000)

  it.each([
    [
      'an import circle',
      { 'platform/logger.ts': uses('../config.ts', './jobs.ts') },
      'no-circular',
      'apps/server/src/platform/jobs.ts',
    ],
    [
      "a feature importing another feature's routes",
      { 'delivery/delivery.ts': uses('../billing/routes.ts') },
      'not-another-features-routes',
      'apps/server/src/delivery/delivery.ts',
    ],
    [
      'a domain module importing its own routes',
      { 'billing/credits.ts': uses('./checkout-routes.ts') },
      'domain-below-routes',
      'apps/server/src/billing/credits.ts',
    ],
    [
      'a root module other than app.ts importing routes',
      { 'services.ts': uses('./delivery/routes.ts') },
      'routes-only-from-app',
      'apps/server/src/services.ts',
    ],
    [
      'a module other than server.ts importing app.ts',
      { 'delivery/delivery.ts': uses('../app.ts') },
      'only-server-wires',
      'apps/server/src/delivery/delivery.ts',
    ],
    [
      'a feature importing an OpenAPI part',
      { 'billing/credits.ts': uses('./openapi.ts') },
      'openapi-parts-only-from-openapi',
      'apps/server/src/billing/credits.ts',
    ],
    [
      'platform/ importing http/',
      { 'platform/jobs.ts': uses('../http/errors.ts') },
      'platform-below-http',
      'apps/server/src/platform/jobs.ts',
    ],
    [
      'http/ importing a feature',
      { 'http/errors.ts': uses('../billing/credits.ts') },
      'http-below-features',
      'apps/server/src/http/errors.ts',
    ],
    [
      'db/ importing anything above it',
      { 'db/schema.ts': uses('../platform/logger.ts') },
      'db-and-storage-at-the-bottom',
      'apps/server/src/db/schema.ts',
    ],
    [
      "playground/ importing another feature's routes",
      { 'playground/sign.ts': uses('../billing/routes.ts') },
      'not-another-features-routes',
      'apps/server/src/playground/sign.ts',
    ],
    [
      'transformation/ importing a root module besides context.ts and config.ts',
      { 'transformation/context.ts': uses('../services.ts') },
      'features-stay-off-the-root',
      'apps/server/src/transformation/context.ts',
    ],
    [
      "a new feature folder importing another feature's routes (checked without naming it)",
      { 'gallery/albums.ts': uses('../billing/routes.ts') },
      'not-another-features-routes',
      'apps/server/src/gallery/albums.ts',
    ],
    [
      'platform/ importing a feature folder it has never heard of',
      { 'gallery/albums.ts': uses(), 'platform/jobs.ts': uses('../gallery/albums.ts') },
      'platform-below-http',
      'apps/server/src/platform/jobs.ts',
    ],
    [
      "a feature importing config.ts's parts instead of config.ts",
      { 'config/env.ts': uses(), 'billing/credits.ts': uses('../config/env.ts') },
      'config-behind-config-ts',
      'apps/server/src/billing/credits.ts',
    ],
    [
      'config/ importing a server module',
      { 'config/env.ts': uses('../platform/logger.ts') },
      'config-imports-no-server-module',
      'apps/server/src/config/env.ts',
    ],
    [
      'a feature importing a root module besides context.ts and config.ts',
      { 'billing/credits.ts': uses('../server.ts') },
      'features-stay-off-the-root',
      'apps/server/src/billing/credits.ts',
    ],
    [
      'delivery importing the playground (its allowance hears of new AI renders instead)',
      {
        'playground/allowance.ts': uses(),
        'delivery/delivery.ts': uses('../playground/allowance.ts'),
      },
      'delivery-below-its-users',
      'apps/server/src/delivery/delivery.ts',
    ],
    [
      'delivery importing the files feature (isImageFormat is in @tessera/url)',
      { 'assets/files.ts': uses(), 'delivery/respond.ts': uses('../assets/files.ts') },
      'delivery-below-its-users',
      'apps/server/src/delivery/respond.ts',
    ],
    [
      "context.ts naming a feature's type",
      { 'accounts/session-cache.ts': uses(), 'context.ts': uses('./accounts/session-cache.ts') },
      'context-holds-no-feature-types',
      'apps/server/src/context.ts',
    ],
    [
      'config/ importing the web settings from http/',
      {
        'http/web-settings.ts': uses(),
        'config/server-config.ts': uses('../http/web-settings.ts'),
      },
      'config-imports-no-server-module',
      'apps/server/src/config/server-config.ts',
    ],
    [
      'a feature building the shared services itself',
      { 'features.ts': uses(), 'billing/credits.ts': uses('../features.ts') },
      'feature-services-wired-once',
      'apps/server/src/billing/credits.ts',
    ],
  ])(
    'fails on %s',
    async (_, change, rule, from) => {
      const violations = await depcheck(await tree({ ...GOOD, ...change }))
      expect(violations.map((violation) => [violation.rule.name, violation.from])).toContainEqual([
        rule,
        from,
      ])
    },
    60_000,
  )
})
