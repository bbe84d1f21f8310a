// Test support for the files, folders and presets suites (assets-*.test.ts): a real server on
// PGlite or PostgreSQL with two organisations, calls recorded as they are made, and the check of
// every recorded answer against the OpenAPI document.
import { createHash, randomUUID } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../db/index.ts'
import type { OpenApiDocument } from '../openapi.ts'
import { conform } from '../openapi-suite.ts'
import type { CallOptions } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

export const API = '/service/panel/assets/v1.0/org'

export const HOSTILE = [
  "' OR '1'='1",
  "x'; drop table files; --",
  '" OR ""="',
  '1) OR (1=1',
  '%',
  '_',
  '$1',
  '<script>alert(1)</script>',
]

export interface ApiError {
  code: string
  message: string
}

export interface FileAnswer {
  _id: string
  orgId: string
  type: 'file'
  name: string
  path: string
  fullPath: string
  url: string
  width: number
  size: number
  version: number
}

export interface FolderAnswer {
  _id: string | null
  type: 'folder'
  name: string
  path: string
  fullPath: string
}

export interface PresetAnswer {
  _id: string
  presetName: string
  transformation: string
  params: Record<string, unknown>
  archived: boolean
}

export interface Listing<T> {
  items: T[]
  page: {
    current: number
    size: number
    hasNext: boolean
    itemTotal: number
    type: string
  }
}

/** Who makes a call: a member's session, or an API token (sent unsigned, as servers do). */
export type Who = { cookie: string } | { token: string }

export interface Recorded {
  method: string
  path: string
  status: number
  body: unknown
}

export async function png(width: number, height = width): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#3366ff' },
  })
    .png()
    .toBuffer()
}

export async function widthOf(response: Response): Promise<number | undefined> {
  return (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width
}

/** Starts a server with Ada and Bob (each an organisation and an API token of it) and records every call made through `call`, for the OpenAPI check. */
export function useAssetsSuite(kind: TestDatabaseKind) {
  const suite = useTestServer(kind)
  const recorded: Recorded[] = []
  // Ada and Bob each own an organisation; each also has an API token of it.
  let ada: {
    cookie: string
    orgId: string
    cloudName: string
    token: string
  }
  let bob: {
    cookie: string
    orgId: string
    cloudName: string
    token: string
  }

  async function call(
    who: Who | undefined,
    method: string,
    path: string,
    options: CallOptions = {},
  ) {
    const credentials: CallOptions =
      who === undefined
        ? {}
        : 'cookie' in who
          ? { cookie: who.cookie }
          : { token: who.token, sign: false }
    const answer = await suite.call(method, path, {
      ...credentials,
      ...options,
    })
    recorded.push({ method, path, status: answer.status, body: answer.body })
    return answer
  }

  async function newMember(firstName: string) {
    const { cookie, organisation, token } = await suite.signUp({
      profile: { firstName },
      token: true,
    })
    return {
      cookie,
      orgId: organisation._id,
      cloudName: organisation.cloudName,
      token: token as string,
    }
  }

  /** Stores a PNG of `size` px at `path` in the organisation, as an upload would. */
  async function addFile(orgId: string, path: string, size = 40) {
    const { repo, storage } = suite.server.services.context
    const data = await png(size)
    const storageKey = `orgs/${orgId}/originals/${randomUUID()}`
    await storage.put(storageKey, data)
    return repo.upsertFile(orgId, {
      path,
      name: path.slice(path.lastIndexOf('/') + 1),
      size: data.length,
      format: 'png',
      contentType: 'image/png',
      width: size,
      height: size,
      hash: createHash('sha256').update(data).digest('hex'),
      storageKey,
    })
  }

  /** Everything an organisation holds, to compare before and after a refused call. */
  async function holdings(orgId: string) {
    const { db } = suite.server.services.context.database
    const [files, folders, presets] = await Promise.all([
      db
        .select()
        .from(schema.files)
        .where(eq(schema.files.organisationId, orgId))
        .orderBy(asc(schema.files.path)),
      db
        .select()
        .from(schema.folders)
        .where(eq(schema.folders.organisationId, orgId))
        .orderBy(asc(schema.folders.path)),
      db
        .select()
        .from(schema.presets)
        .where(eq(schema.presets.organisationId, orgId))
        .orderBy(asc(schema.presets.name)),
    ])
    return { files, folders, presets }
  }

  const deliver = (cloudName: string, pattern: string, path: string) =>
    fetch(
      `${suite.server.url}/v2/${cloudName}/${pattern}/${path.split('/').map(encodeURIComponent).join('/')}`,
    )
  const local = (url: string) => url.replace(suite.server.config.publicUrl, suite.server.url)

  /** Storage keys of a file's derived images once `count` are indexed (they are stored after the answer). */
  async function derivedKeys(fileId: string, count = 0): Promise<string[]> {
    const { db } = suite.server.services.context.database
    for (let attempt = 0; ; attempt++) {
      const rows = await db
        .select({ storageKey: schema.derivedImages.storageKey })
        .from(schema.derivedImages)
        .where(eq(schema.derivedImages.fileId, fileId))
      if (rows.length >= count || attempt >= 100) return rows.map((row) => row.storageKey)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  beforeAll(async () => {
    ada = await newMember('Ada')
    bob = await newMember('Bob')
  })
  return {
    get server() {
      return suite.server
    },
    get client() {
      return suite.client
    },
    get ada() {
      return ada
    },
    get bob() {
      return bob
    },
    recorded,
    call,
    newMember,
    addFile,
    holdings,
    deliver,
    local,
    derivedKeys,
  }
}

export type AssetsSuite = ReturnType<typeof useAssetsSuite>

/**
 * Checks every answer the suite's calls saw against the served OpenAPI document: each documented,
 * none a 5xx, each body fitting its schema; `more` adds tests that read the document.
 */
export function describeAnswersDocumented(
  t: AssetsSuite,
  least: number,
  more?: (document: () => OpenApiDocument) => void,
) {
  describe('the OpenAPI document', () => {
    let document: OpenApiDocument
    beforeAll(async () => {
      document = (await (
        await fetch(`${t.server.url}/service/openapi.json`)
      ).json()) as OpenApiDocument
    })

    it('describes every answer these tests saw, none of them a 5xx', () => {
      const mine = t.recorded.filter((entry) => entry.path.startsWith(API))
      expect(mine.length).toBeGreaterThan(least)
      const problems: string[] = []
      for (const entry of mine) {
        expect(entry.status, `${entry.method} ${entry.path}`).toBeLessThan(500)
        const pathname = entry.path.split('?')[0] as string
        const template = Object.keys(document.paths).find((candidate) =>
          new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
        )
        const operation =
          template === undefined
            ? undefined
            : document.paths[template]?.[entry.method.toLowerCase() as 'get']
        const response = operation?.responses[String(entry.status)]
        if (response === undefined) {
          problems.push(`${entry.method} ${pathname} → ${entry.status} is not documented`)
          continue
        }
        const schema = response.content?.['application/json']?.schema
        if (schema !== undefined) {
          for (const problem of conform(document, schema, entry.body, '$', true)) {
            problems.push(`${entry.method} ${pathname} → ${entry.status}: ${problem}`)
          }
        }
      }
      expect([...new Set(problems)]).toEqual([])
    })

    more?.(() => document)
  })
}

/**
 * An assets API test file's suite, on each database the run uses: a server with Ada and Bob
 * (`useAssetsSuite`), the file's `tests`, then the check that every answer they saw (more than
 * `answers.least`) is documented, with `answers.more` tests that read the document.
 */
export function describeAssetsApi(
  answers: { least: number; more?: (document: () => OpenApiDocument) => void },
  tests: (t: AssetsSuite) => void,
): void {
  describe.each<TestDatabaseKind>(testDatabases('server'))(
    'files, folders and presets on %s',
    (kind) => {
      const t = useAssetsSuite(kind)
      tests(t)
      describeAnswersDocumented(t, answers.least, answers.more)
    },
  )
}
