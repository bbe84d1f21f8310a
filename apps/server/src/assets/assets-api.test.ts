// Files, folders and presets through the real server, on PGlite and PostgreSQL: listing with
// paging, rename, move and delete (delivery follows at once), folders, presets (delivery uses a
// change at once), another organisation's callers (404, nothing changed), hostile input, and
// every answer checked against the OpenAPI document.
import { createHash, randomUUID } from 'node:crypto'
import { parsePattern } from '@tessera/url'
import { asc, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../db/index.ts'
import type { JsonSchema, OpenApiDocument } from '../openapi.ts'
import { type CallOptions, createTestClient } from '../test-client.ts'
import {
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'
import { ASSET_PAGE_SIZE } from './paths.ts'

const API = '/service/panel/assets/v1.0/org'

const HOSTILE = [
  "' OR '1'='1",
  "x'; drop table files; --",
  '" OR ""="',
  '1) OR (1=1',
  '%',
  '_',
  '$1',
  '<script>alert(1)</script>',
]

interface ApiError {
  code: string
  message: string
}

interface FileAnswer {
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

interface FolderAnswer {
  _id: string | null
  type: 'folder'
  name: string
  path: string
  fullPath: string
}

interface PresetAnswer {
  _id: string
  presetName: string
  transformation: string
  params: Record<string, unknown>
  archived: boolean
}

interface Listing<T> {
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
type Who = { cookie: string } | { token: string }

interface Recorded {
  method: string
  path: string
  status: number
  body: unknown
}

/** Checks `value` against the subset of JSON Schema the document uses; returns the problems. */
function conform(
  document: OpenApiDocument,
  schema: JsonSchema,
  value: unknown,
  at = '$',
): string[] {
  if (schema.$ref !== undefined) {
    const target = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
    return target === undefined
      ? [`${at}: unknown ${schema.$ref}`]
      : conform(document, target, value, at)
  }
  if (schema.oneOf !== undefined) {
    const fits = schema.oneOf.filter((option) => conform(document, option, value, at).length === 0)
    return fits.length === 1 ? [] : [`${at}: fits ${fits.length} of oneOf`]
  }
  const typeOf = (v: unknown) =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v
  const actual = typeOf(value)
  const types = schema.type === undefined ? [] : [schema.type].flat()
  if (
    types.length > 0 &&
    !types.includes(actual as never) &&
    !(actual === 'integer' && types.includes('number'))
  ) {
    return [`${at}: expected ${types.join('|')}, got ${actual}`]
  }
  const problems: string[] = []
  if (schema.const !== undefined && schema.const !== value)
    problems.push(`${at}: not ${schema.const}`)
  if (schema.enum !== undefined && !schema.enum.includes(value as never)) {
    problems.push(`${at}: ${JSON.stringify(value)} not in enum`)
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>
    for (const key of schema.required ?? [])
      if (!(key in record)) problems.push(`${at}: missing ${key}`)
    for (const [key, child] of Object.entries(record)) {
      const property = schema.properties?.[key]
      if (property !== undefined)
        problems.push(...conform(document, property, child, `${at}.${key}`))
      else if (typeof schema.additionalProperties === 'object') {
        problems.push(...conform(document, schema.additionalProperties, child, `${at}.${key}`))
      } else if (schema.properties !== undefined) problems.push(`${at}: undocumented ${key}`)
    }
  }
  if (actual === 'array' && schema.items !== undefined) {
    const items = schema.items
    ;(value as unknown[]).forEach((child, index) => {
      problems.push(...conform(document, items, child, `${at}[${index}]`))
    })
  }
  return problems
}

async function png(width: number, height = width): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#3366ff' },
  })
    .png()
    .toBuffer()
}

async function widthOf(response: Response): Promise<number | undefined> {
  return (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width
}

describe.each<TestDatabaseKind>(testDatabases('server'))(
  'files, folders and presets on %s',
  (kind) => {
    let server: TestServer
    let client: ReturnType<typeof createTestClient>
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
      const answer = await client.call(method, path, {
        ...credentials,
        ...options,
      })
      recorded.push({ method, path, status: answer.status, body: answer.body })
      return answer
    }

    async function newMember(firstName: string) {
      const signed = await client.signup({ firstName })
      const orgId = signed.organisation._id
      const made = await client.call('POST', `/service/panel/organization/v1.0/${orgId}/tokens`, {
        cookie: signed.cookie,
        body: { name: 'tests' },
      })
      expect(made.status).toBe(201)
      return {
        cookie: signed.cookie,
        orgId,
        cloudName: signed.organisation.cloudName,
        token: (made.body as { token: string }).token,
      }
    }

    /** Stores a PNG of `size` px at `path` in the organisation, as an upload would. */
    async function addFile(orgId: string, path: string, size = 40) {
      const { repo, storage } = server.services.context
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
      const { db } = server.services.context.database
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
        `${server.url}/v2/${cloudName}/${pattern}/${path.split('/').map(encodeURIComponent).join('/')}`,
      )
    const local = (url: string) => url.replace(server.config.publicUrl, server.url)

    /** Storage keys of a file's derived images once `count` are indexed (they are stored after the answer). */
    async function derivedKeys(fileId: string, count = 0): Promise<string[]> {
      const { db } = server.services.context.database
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
      server = await startTestServer(kind)
      client = createTestClient(server)
      ada = await newMember('Ada')
      bob = await newMember('Bob')
    }, 60_000)
    afterAll(async () => {
      await server?.stop()
    })

    describe('the file listing', () => {
      it('lists one folder level: its folders first, then its files, with a SPEC §7.2 page', async () => {
        await addFile(ada.orgId, 'listing/b.png')
        await addFile(ada.orgId, 'listing/A.png')
        await addFile(ada.orgId, 'listing/photos/deep/x.png')
        await addFile(ada.orgId, 'listing/zoo/y.png')
        expect(
          (
            await call(ada, 'POST', `${API}/${ada.orgId}/folders`, {
              body: { name: 'empty', path: 'listing' },
            })
          ).status,
        ).toBe(201)

        const answer = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=listing`)
        expect(answer.status).toBe(200)
        expect(answer.response.headers.get('cache-control')).toBe('no-store')
        const listing = answer.body as Listing<FileAnswer | FolderAnswer>
        expect(listing.items.map((item) => `${item.type}:${item.name}`)).toEqual([
          'folder:empty',
          'folder:photos',
          'folder:zoo',
          'file:A.png',
          'file:b.png',
        ])
        expect(listing.page).toEqual({
          current: 1,
          size: ASSET_PAGE_SIZE,
          hasNext: false,
          itemTotal: 5,
          type: 'number',
        })
        const [empty, photos] = listing.items as FolderAnswer[]
        expect(empty).toMatchObject({
          path: 'listing',
          fullPath: 'listing/empty',
        })
        expect(empty?._id).toMatch(/^[0-9a-f-]{36}$/)
        // A folder that exists because a file lies in it has no id of its own.
        expect(photos?._id).toBeNull()
        const file = listing.items[3] as FileAnswer
        expect(file).toMatchObject({
          orgId: ada.orgId,
          name: 'A.png',
          path: 'listing',
          fullPath: 'listing/A.png',
          url: `${server.config.publicUrl}/v2/${ada.cloudName}/original/listing/A.png`,
          width: 40,
        })

        const top = (await call(ada, 'GET', `${API}/${ada.orgId}/files`))
          .body as Listing<FolderAnswer>
        expect(top.items.map((item) => item.name)).toContain('listing')
        const slashes = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=/listing/photos/`)
        expect((slashes.body as Listing<FolderAnswer>).items.map((item) => item.fullPath)).toEqual([
          'listing/photos/deep',
        ])
      })

      it('pages through a folder until hasNext is false, each entry once', async () => {
        for (let i = 0; i < 7; i++) await addFile(ada.orgId, `paged/file-${i}.png`, 8)
        for (const name of ['f1', 'f2', 'f3'])
          await addFile(ada.orgId, `paged/${name}/inner.png`, 8)
        const seen: string[] = []
        let pages = 0
        for (let pageNo = 1; ; pageNo++) {
          const answer = await call(
            ada,
            'GET',
            `${API}/${ada.orgId}/files?path=paged&pageSize=4&pageNo=${pageNo}`,
          )
          expect(answer.status).toBe(200)
          const { items, page } = answer.body as Listing<FileAnswer | FolderAnswer>
          pages++
          expect(page).toMatchObject({
            current: pageNo,
            size: 4,
            itemTotal: 10,
          })
          seen.push(...items.map((item) => `${item.type}:${item.name}`))
          if (!page.hasNext) break
        }
        expect(pages).toBe(3)
        expect(seen).toEqual([
          'folder:f1',
          'folder:f2',
          'folder:f3',
          ...Array.from({ length: 7 }, (_, i) => `file:file-${i}.png`),
        ])
        const past = await call(
          ada,
          'GET',
          `${API}/${ada.orgId}/files?path=paged&pageSize=4&pageNo=9`,
        )
        expect(past.body).toMatchObject({
          items: [],
          page: { hasNext: false, itemTotal: 10 },
        })
      })

      it('filters by name case-insensitively, and text that looks like SQL or a pattern matches nothing', async () => {
        const found = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=paged&name=FILE-3`)
        expect((found.body as Listing<FileAnswer>).items.map((item) => item.name)).toEqual([
          'file-3.png',
        ])
        const folders = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=paged&name=f2`)
        expect((folders.body as Listing<FolderAnswer>).items.map((item) => item.name)).toEqual([
          'f2',
        ])
        for (const text of HOSTILE) {
          const answer = await call(
            ada,
            'GET',
            `${API}/${ada.orgId}/files?path=paged&name=${encodeURIComponent(text)}`,
          )
          expect(answer.status, text).toBe(200)
          expect((answer.body as Listing<FileAnswer>).items, text).toEqual([])
        }
      })

      it('sorts the whole level, not one page: folders first, then files by the order asked', async () => {
        const sizes = new Map<string, number>()
        for (const [name, pixels] of [
          ['a.png', 10],
          ['b.png', 60],
          ['c.png', 30],
          ['d.png', 90],
          ['e.png', 20],
        ] as const) {
          sizes.set(name, (await addFile(ada.orgId, `sorted/${name}`, pixels)).size)
        }
        for (const name of ['f1', 'f2']) await addFile(ada.orgId, `sorted/${name}/inner.png`, 8)
        const walk = async (sort: string) => {
          const seen: string[] = []
          for (let pageNo = 1; ; pageNo++) {
            const answer = await call(
              ada,
              'GET',
              `${API}/${ada.orgId}/files?path=sorted&pageSize=3&pageNo=${pageNo}&sort=${sort}`,
            )
            expect(answer.status).toBe(200)
            const { items, page } = answer.body as Listing<FileAnswer | FolderAnswer>
            seen.push(...items.map((item) => `${item.type}:${item.name}`))
            if (!page.hasNext) return seen
          }
        }
        const largestFirst = [...sizes.keys()].sort(
          (a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0) || a.localeCompare(b),
        )
        expect(await walk('-size')).toEqual([
          'folder:f1',
          'folder:f2',
          ...largestFirst.map((name) => `file:${name}`),
        ])
        expect(await walk('-name')).toEqual([
          'folder:f2',
          'folder:f1',
          ...['e', 'd', 'c', 'b', 'a'].map((name) => `file:${name}.png`),
        ])
        expect(await walk('name')).toEqual(await walk('type'))
        const refused = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=sorted&sort=size`)
        expect(refused.status).toBe(400)
        expect((refused.body as ApiError).code).toBe('invalid_query')
      })

      it('answers 404 folder_not_found for a folder that does not exist', async () => {
        const answer = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=nowhere/at/all`)
        expect(answer.status).toBe(404)
        expect((answer.body as ApiError).code).toBe('folder_not_found')
      })

      it.each([
        ['pageNo=0', 'invalid_query'],
        ['pageNo=-1', 'invalid_query'],
        ['pageNo=1.5', 'invalid_query'],
        ['pageNo=abc', 'invalid_query'],
        ['pageNo=100001', 'invalid_query'],
        ['pageSize=0', 'invalid_query'],
        ['pageSize=101', 'invalid_query'],
        ['pageSize=1e3', 'invalid_query'],
        ['pageNo=1&pageNo=2', 'invalid_query'],
        [`path=${'a'.repeat(1100)}`, 'invalid_query'],
        ['path=a%00b', 'invalid_query'],
        ['path=../etc', 'invalid_path'],
        ['path=a/../../b', 'invalid_path'],
        ['path=a//b', 'invalid_path'],
        ['path=a\\b', 'invalid_path'],
        [`path=${encodeURIComponent("' OR '1'='1")}`, 'invalid_path'],
      ])('refuses %s with 400 %s', async (query, code) => {
        const answer = await call(ada, 'GET', `${API}/${ada.orgId}/files?${query}`)
        expect(answer.status).toBe(400)
        expect((answer.body as ApiError).code).toBe(code)
        expect((answer.body as ApiError).message).not.toMatch(/at .*\.ts/)
      })
    })

    describe('one file', () => {
      it('answers the file with a delivery URL that serves it', async () => {
        const file = await addFile(ada.orgId, 'one/sky.png', 30)
        const answer = await call(ada, 'GET', `${API}/${ada.orgId}/files/${file.id}`)
        expect(answer.status).toBe(200)
        const body = answer.body as FileAnswer
        expect(body).toMatchObject({
          _id: file.id,
          name: 'sky.png',
          path: 'one',
          version: 1,
        })
        const delivered = await fetch(local(body.url))
        expect(delivered.status).toBe(200)
        expect(await widthOf(delivered)).toBe(30)
      })

      it('renames a file: the old delivery URL answers 404 at once and the new one the image', async () => {
        const { storage } = server.services.context
        const file = await addFile(ada.orgId, 'rename/old.png', 24)
        expect((await deliver(ada.cloudName, 'original', 'rename/old.png')).status).toBe(200)
        expect((await deliver(ada.cloudName, 't.resize(w:12)', 'rename/old.png')).status).toBe(200)
        const [derivedKey] = await derivedKeys(file.id, 1)
        if (derivedKey === undefined) throw new Error('the derived image was not indexed')
        // Ask for the new path first, so this process remembers it as missing.
        expect((await deliver(ada.cloudName, 'original', 'rename/new name.png')).status).toBe(404)
        const answer = await call(ada, 'PATCH', `${API}/${ada.orgId}/files/${file.id}`, {
          body: { name: 'new name.png' },
        })
        expect(answer.status).toBe(200)
        expect(answer.body).toMatchObject({
          _id: file.id,
          name: 'new name.png',
          path: 'rename',
          fullPath: 'rename/new name.png',
          version: 2,
          url: `${server.config.publicUrl}/v2/${ada.cloudName}/original/rename/new%20name.png`,
        })
        // The derived images of the old version went with the move.
        expect(await derivedKeys(file.id)).toEqual([])
        expect(await storage.get(derivedKey)).toBeUndefined()
        expect((await deliver(ada.cloudName, 'original', 'rename/old.png')).status).toBe(404)
        expect((await deliver(ada.cloudName, 't.resize(w:12)', 'rename/old.png')).status).toBe(404)
        const moved = await deliver(ada.cloudName, 't.resize(w:12)', 'rename/new name.png')
        expect(moved.status).toBe(200)
        expect(await widthOf(moved)).toBe(12)
      })

      it('moves a file to another folder (and to the top level) with a token', async () => {
        const file = await addFile(ada.orgId, 'move/from/pic.png')
        const moved = await call(
          { token: ada.token },
          'PATCH',
          `${API}/${ada.orgId}/files/${file.id}`,
          {
            body: { path: 'move/to/here' },
          },
        )
        expect(moved.status).toBe(200)
        expect(moved.body).toMatchObject({
          fullPath: 'move/to/here/pic.png',
          path: 'move/to/here',
        })
        const listed = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=move/to/here`)
        expect((listed.body as Listing<FileAnswer>).items.map((item) => item._id)).toEqual([
          file.id,
        ])
        // The folder it left held nothing else, so it is gone.
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/files?path=move/from`)).status).toBe(
          404,
        )
        const both = await call(
          { token: ada.token },
          'PATCH',
          `${API}/${ada.orgId}/files/${file.id}`,
          {
            body: { path: '', name: 'top-pic.png' },
          },
        )
        expect(both.body).toMatchObject({ fullPath: 'top-pic.png', path: '' })
        expect((await deliver(ada.cloudName, 'original', 'top-pic.png')).status).toBe(200)
        expect((await deliver(ada.cloudName, 'original', 'move/to/here/pic.png')).status).toBe(404)
        const same = await call(
          { token: ada.token },
          'PATCH',
          `${API}/${ada.orgId}/files/${file.id}`,
          {
            body: { name: 'top-pic.png' },
          },
        )
        expect(same.status).toBe(200)
      })

      it('refuses a rename onto an existing file or folder with 409 and changes nothing', async () => {
        const file = await addFile(ada.orgId, 'clash/a.png')
        await addFile(ada.orgId, 'clash/b.png')
        await addFile(ada.orgId, 'clash/dir/c.png')
        const before = await holdings(ada.orgId)
        for (const body of [
          { name: 'b.png' },
          { name: 'dir' },
          { path: 'clash', name: 'b.png' },
          { path: '', name: 'clash' },
        ]) {
          const answer = await call(ada, 'PATCH', `${API}/${ada.orgId}/files/${file.id}`, { body })
          expect(answer.status, JSON.stringify(body)).toBe(409)
          expect((answer.body as ApiError).code).toBe('already_exists')
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it('refuses bad names and paths with 400 and changes nothing', async () => {
        const file = await addFile(ada.orgId, 'bad/name.png')
        const before = await holdings(ada.orgId)
        const cases: [unknown, string][] = [
          [{ name: 'a/b.png' }, 'invalid_name'],
          [{ name: '../x.png' }, 'invalid_name'],
          [{ name: '..' }, 'invalid_path'],
          [{ name: '.' }, 'invalid_path'],
          [{ name: '' }, 'invalid_path'],
          [{ name: '   ' }, 'invalid_path'],
          [{ name: 'tab\there.png' }, 'invalid_body'],
          [{ name: 'nul\u0000.png' }, 'invalid_body'],
          [{ name: 'line\nbreak.png' }, 'invalid_body'],
          [{ name: '\ud800.png' }, 'invalid_body'],
          [{ name: 'back\\slash.png' }, 'invalid_path'],
          [{ name: 'x'.repeat(256) }, 'invalid_body'],
          [{ name: 42 }, 'invalid_body'],
          [{ name: null }, 'invalid_body'],
          [{ path: '../../etc' }, 'invalid_path'],
          [{ path: 'a/./b' }, 'invalid_path'],
          [{ path: 'a%2f..' }, 'invalid_path'],
          [{ path: ['a'] }, 'invalid_body'],
          [{}, 'invalid_body'],
          [{ name: 'ok.png', extra: true }, 'invalid_body'],
          [[], 'invalid_body'],
          ['name', 'invalid_body'],
          ...HOSTILE.map((text): [unknown, string] => [
            { name: text },
            text.includes('/') ? 'invalid_name' : 'invalid_path',
          ]),
          ...HOSTILE.map((text): [unknown, string] => [{ path: text }, 'invalid_path']),
        ]
        for (const [body, code] of cases) {
          const answer = await call(ada, 'PATCH', `${API}/${ada.orgId}/files/${file.id}`, { body })
          expect(answer.status, JSON.stringify(body)).toBe(400)
          expect((answer.body as ApiError).code, JSON.stringify(body)).toBe(code)
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it('deletes a file with its stored original and derived images; delivery answers 404', async () => {
        const { storage } = server.services.context
        const file = await addFile(ada.orgId, 'gone/soon.png', 32)
        expect((await deliver(ada.cloudName, 't.resize(w:16)', 'gone/soon.png')).status).toBe(200)
        const [derivedKey] = await derivedKeys(file.id, 1)
        if (derivedKey === undefined) throw new Error('the derived image was not indexed')
        expect(await storage.get(derivedKey)).toBeDefined()

        const answer = await call(ada, 'DELETE', `${API}/${ada.orgId}/files/${file.id}`)
        expect(answer.status).toBe(200)
        expect(answer.body).toMatchObject({
          _id: file.id,
          fullPath: 'gone/soon.png',
        })
        expect(await storage.get(file.storageKey)).toBeUndefined()
        expect(await storage.get(derivedKey)).toBeUndefined()
        expect(await derivedKeys(file.id)).toEqual([])
        expect((await deliver(ada.cloudName, 'original', 'gone/soon.png')).status).toBe(404)
        expect((await deliver(ada.cloudName, 't.resize(w:16)', 'gone/soon.png')).status).toBe(404)
        const again = await call(
          { token: ada.token },
          'DELETE',
          `${API}/${ada.orgId}/files/${file.id}`,
        )
        expect(again.status).toBe(404)
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/files/${file.id}`)).status).toBe(404)
      })

      it.each([
        'not-a-uuid',
        '00000000-0000-4000-8000-000000000000',
        encodeURIComponent("' OR '1'='1"),
        encodeURIComponent('1; drop table files'),
        'x'.repeat(300),
      ])('answers 404 file_not_found for the file id %s on every file call', async (id) => {
        for (const [method, body] of [
          ['GET', undefined],
          ['PATCH', { name: 'renamed.png' }],
          ['DELETE', undefined],
        ] as const) {
          const answer = await call(
            { token: ada.token },
            method,
            `${API}/${ada.orgId}/files/${id}`,
            body === undefined ? {} : { body },
          )
          expect(answer.status, method).toBe(404)
          expect((answer.body as ApiError).code, method).toBe('file_not_found')
        }
      })
    })

    describe('folders', () => {
      it('makes a folder and its missing parents, and lists it with its id', async () => {
        const made = await call(ada, 'POST', `${API}/${ada.orgId}/folders`, {
          body: { name: 'shoes', path: '/made/products/' },
        })
        expect(made.status).toBe(201)
        const folder = made.body as FolderAnswer
        expect(folder).toMatchObject({
          type: 'folder',
          name: 'shoes',
          path: 'made/products',
          fullPath: 'made/products/shoes',
        })
        expect(folder._id).toMatch(/^[0-9a-f-]{36}$/)
        const listed = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=made/products`)
        expect((listed.body as Listing<FolderAnswer>).items).toEqual([
          expect.objectContaining({ _id: folder._id, name: 'shoes' }),
        ])
        const parent = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=made`)
        expect((parent.body as Listing<FolderAnswer>).items[0]?._id).toMatch(/^[0-9a-f-]{36}$/)
        const top = await call({ token: ada.token }, 'POST', `${API}/${ada.orgId}/folders`, {
          body: { name: 'top-level' },
        })
        expect(top.body).toMatchObject({ path: '', fullPath: 'top-level' })
      })

      it('refuses a folder where a folder (made or implied by files) or a file is, with 409', async () => {
        await addFile(ada.orgId, 'taken/implied/file.png')
        const before = await holdings(ada.orgId)
        for (const body of [
          { name: 'shoes', path: 'made/products' },
          { name: 'implied', path: 'taken' },
          { name: 'file.png', path: 'taken/implied' },
          { name: 'taken' },
        ]) {
          const answer = await call(ada, 'POST', `${API}/${ada.orgId}/folders`, { body })
          expect(answer.status, JSON.stringify(body)).toBe(409)
          expect((answer.body as ApiError).code).toBe('already_exists')
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it('refuses bad folder names and paths with 400 and makes nothing', async () => {
        const before = await holdings(ada.orgId)
        const cases: [unknown, string][] = [
          [{ name: 'a/b' }, 'invalid_name'],
          [{ name: '..' }, 'invalid_path'],
          [{ name: '' }, 'invalid_path'],
          [{ name: 'x', path: '../up' }, 'invalid_path'],
          [{ name: 'x', path: 'a/../../b' }, 'invalid_path'],
          [{ name: 'bell\u0007' }, 'invalid_body'],
          [{ name: 'x'.repeat(300) }, 'invalid_body'],
          [{ name: 'x', path: `${'a/'.repeat(600)}a` }, 'invalid_body'],
          [{ path: 'x' }, 'invalid_body'],
          [{ name: true }, 'invalid_body'],
          [{ name: 'x', colour: 'red' }, 'invalid_body'],
          ...HOSTILE.map((text): [unknown, string] => [
            { name: text },
            text.includes('/') ? 'invalid_name' : 'invalid_path',
          ]),
          ...HOSTILE.map((text): [unknown, string] => [{ name: 'ok', path: text }, 'invalid_path']),
        ]
        for (const [body, code] of cases) {
          const answer = await call(ada, 'POST', `${API}/${ada.orgId}/folders`, { body })
          expect(answer.status, JSON.stringify(body)).toBe(400)
          expect((answer.body as ApiError).code, JSON.stringify(body)).toBe(code)
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it('deletes an empty folder, and refuses one with something in it unless recursive=true', async () => {
        await call(ada, 'POST', `${API}/${ada.orgId}/folders`, {
          body: { name: 'inner', path: 'del/outer' },
        })
        const refused = await call(ada, 'DELETE', `${API}/${ada.orgId}/folders?path=del/outer`)
        expect(refused.status).toBe(409)
        expect((refused.body as ApiError).code).toBe('folder_not_empty')
        const inner = await call(ada, 'DELETE', `${API}/${ada.orgId}/folders?path=del/outer/inner`)
        expect(inner.status).toBe(200)
        expect(inner.body).toEqual({
          path: 'del/outer/inner',
          deleted: { files: 0, folders: 1 },
        })
        const outer = await call(ada, 'DELETE', `${API}/${ada.orgId}/folders?path=/del/outer/`)
        expect(outer.body).toEqual({
          path: 'del/outer',
          deleted: { files: 0, folders: 1 },
        })
        const missing = await call(
          { token: ada.token },
          'DELETE',
          `${API}/${ada.orgId}/folders?path=del/outer`,
        )
        expect(missing.status).toBe(404)
        expect((missing.body as ApiError).code).toBe('folder_not_found')
      })

      it('deletes a folder recursively: its files, their stored bytes and sub-folders', async () => {
        const { storage } = server.services.context
        const files = [
          await addFile(ada.orgId, 'tree/a.png'),
          await addFile(ada.orgId, 'tree/sub/b.png'),
          await addFile(ada.orgId, 'tree/sub/deeper/c.png'),
        ]
        const kept = await addFile(ada.orgId, 'tree-sibling/d.png')
        await call(ada, 'POST', `${API}/${ada.orgId}/folders`, {
          body: { name: 'empty', path: 'tree/sub' },
        })
        const answer = await call(
          { token: ada.token },
          'DELETE',
          `${API}/${ada.orgId}/folders?path=tree&recursive=true`,
        )
        expect(answer.status).toBe(200)
        // Three made folders: tree/sub/empty, and its parents tree and tree/sub made with it.
        expect(answer.body).toEqual({
          path: 'tree',
          deleted: { files: 3, folders: 3 },
        })
        for (const file of files) {
          expect(await storage.get(file.storageKey)).toBeUndefined()
          expect((await deliver(ada.cloudName, 'original', file.path)).status).toBe(404)
        }
        expect((await deliver(ada.cloudName, 'original', kept.path)).status).toBe(200)
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/files?path=tree`)).status).toBe(404)
      })

      it.each([
        ['', 'invalid_query'],
        ['path=', 'invalid_query'],
        ['path=/', 'invalid_query'],
        ['path=../x', 'invalid_path'],
        ['path=x&recursive=yes', 'invalid_query'],
        [`path=${encodeURIComponent("x'; drop table folders; --")}`, 'invalid_path'],
      ])('refuses to delete the folder of "%s" with 400 %s', async (query, code) => {
        const answer = await call(ada, 'DELETE', `${API}/${ada.orgId}/folders?${query}`)
        expect(answer.status).toBe(400)
        expect((answer.body as ApiError).code).toBe(code)
      })

      it('moves a folder with everything in it: old URLs answer 404, new ones the images', async () => {
        const { storage } = server.services.context
        const one = await addFile(ada.orgId, 'albums/2024/one.png', 20)
        await addFile(ada.orgId, 'albums/2024/sub/two.png', 20)
        expect((await deliver(ada.cloudName, 't.flip()', one.path)).status).toBe(200)
        const [derivedKey] = await derivedKeys(one.id, 1)
        if (derivedKey === undefined) throw new Error('the derived image was not indexed')
        await call(ada, 'POST', `${API}/${ada.orgId}/folders`, {
          body: { name: 'empty', path: 'albums/2024' },
        })
        expect((await deliver(ada.cloudName, 'original', 'archive/old-2024/one.png')).status).toBe(
          404,
        )
        const answer = await call(ada, 'PATCH', `${API}/${ada.orgId}/folders?path=albums/2024`, {
          body: { name: 'old-2024', path: 'archive' },
        })
        expect(answer.status).toBe(200)
        expect(answer.body).toMatchObject({
          fullPath: 'archive/old-2024',
          name: 'old-2024',
          path: 'archive',
        })
        expect(await derivedKeys(one.id)).toEqual([])
        expect(await storage.get(derivedKey)).toBeUndefined()
        const file = await call(ada, 'GET', `${API}/${ada.orgId}/files/${one.id}`)
        expect(file.body).toMatchObject({
          fullPath: 'archive/old-2024/one.png',
          version: 2,
        })
        for (const path of ['one.png', 'sub/two.png']) {
          expect((await deliver(ada.cloudName, 'original', `albums/2024/${path}`)).status).toBe(404)
          expect(
            (await deliver(ada.cloudName, 'original', `archive/old-2024/${path}`)).status,
          ).toBe(200)
        }
        const listed = await call(ada, 'GET', `${API}/${ada.orgId}/files?path=archive/old-2024`)
        expect((listed.body as Listing<FolderAnswer>).items.map((item) => item.name)).toEqual([
          'empty',
          'sub',
          'one.png',
        ])
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/files?path=albums/2024`)).status).toBe(
          404,
        )
      })

      it('refuses to move a folder into itself, onto something, or that does not exist', async () => {
        await addFile(ada.orgId, 'mv/a/x.png')
        await addFile(ada.orgId, 'mv/b/y.png')
        const before = await holdings(ada.orgId)
        const cases: [string, unknown, number, string][] = [
          ['mv/a', { path: 'mv/a/inside' }, 400, 'invalid_path'],
          ['mv/a', { name: 'b' }, 409, 'already_exists'],
          ['mv/a', { path: 'mv/b', name: 'y.png' }, 409, 'already_exists'],
          ['mv/none', { name: 'z' }, 404, 'folder_not_found'],
          ['mv/a', {}, 400, 'invalid_body'],
          ['mv/a', { name: 'q/r' }, 400, 'invalid_name'],
          ['', { name: 'z' }, 400, 'invalid_query'],
        ]
        for (const [from, body, status, code] of cases) {
          const answer = await call(ada, 'PATCH', `${API}/${ada.orgId}/folders?path=${from}`, {
            body,
          })
          expect(answer.status, `${from} ${JSON.stringify(body)}`).toBe(status)
          expect((answer.body as ApiError).code).toBe(code)
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })
    })

    describe('presets', () => {
      it('creates, reads, lists (archived shown, paged), changes and deletes a preset', async () => {
        const made = await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: {
            presetName: 'card_v2-x',
            transformation: ' t.resize(w:$w,h:$h)~t.flip() ',
            params: {
              w: { type: 'integer', default: 40 },
              h: { type: 'integer', default: 30 },
            },
          },
        })
        expect(made.status).toBe(201)
        expect(made.body).toMatchObject({
          presetName: 'card_v2-x',
          transformation: 't.resize(w:$w,h:$h)~t.flip()',
          params: { w: { type: 'integer', default: 40 } },
          archived: false,
        })
        const read = await call(
          { token: ada.token },
          'GET',
          `${API}/${ada.orgId}/presets/card_v2-x`,
        )
        expect(read.body).toEqual(made.body)

        for (const name of ['p1', 'p2', 'p3', 'p4']) {
          const answer = await call({ token: ada.token }, 'POST', `${API}/${ada.orgId}/presets`, {
            body: { presetName: name, transformation: 't.flip()' },
          })
          expect(answer.status).toBe(201)
        }
        const names: string[] = []
        for (let pageNo = 1; ; pageNo++) {
          const answer = await call(
            ada,
            'GET',
            `${API}/${ada.orgId}/presets?pageSize=2&pageNo=${pageNo}`,
          )
          const { items, page } = answer.body as Listing<PresetAnswer>
          names.push(...items.map((item) => item.presetName))
          expect(items.every((item) => typeof item.archived === 'boolean')).toBe(true)
          if (!page.hasNext) break
        }
        expect(names).toEqual(['card_v2-x', 'p1', 'p2', 'p3', 'p4'])

        const changed = await call(ada, 'PATCH', `${API}/${ada.orgId}/presets/p1`, {
          body: { transformation: 't.grey()' },
        })
        expect(changed.status).toBe(200)
        expect(changed.body).toMatchObject({
          presetName: 'p1',
          transformation: 't.grey()',
          archived: false,
        })

        const deleted = await call(ada, 'DELETE', `${API}/${ada.orgId}/presets/p4`)
        expect(deleted.status).toBe(200)
        expect(deleted.body).toMatchObject({ presetName: 'p4' })
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/presets/p4`)).status).toBe(404)
        expect(
          (await call({ token: ada.token }, 'DELETE', `${API}/${ada.orgId}/presets/p4`)).status,
        ).toBe(404)
      })

      it('archives a preset: listed as archived, left out of the usable list, refused by delivery; restores it', async () => {
        await addFile(ada.orgId, 'presets/photo.png', 50)
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: { presetName: 'small', transformation: 't.resize(w:10)' },
        })
        expect((await deliver(ada.cloudName, 'p:small', 'presets/photo.png')).status).toBe(200)

        const archived = await call(ada, 'PATCH', `${API}/${ada.orgId}/presets/small`, {
          body: { archived: true },
        })
        expect(archived.status).toBe(200)
        expect(archived.body).toMatchObject({
          presetName: 'small',
          archived: true,
        })
        const refused = await deliver(ada.cloudName, 'p:small', 'presets/photo.png')
        expect(refused.status).toBe(400)
        expect(((await refused.json()) as ApiError).message).toBe('Preset small is archived')

        const all = (await call(ada, 'GET', `${API}/${ada.orgId}/presets?pageSize=100`))
          .body as Listing<PresetAnswer>
        expect(all.items.find((item) => item.presetName === 'small')?.archived).toBe(true)
        const usable = (
          await call(ada, 'GET', `${API}/${ada.orgId}/presets?archived=false&pageSize=100`)
        ).body as Listing<PresetAnswer>
        expect(usable.items.map((item) => item.presetName)).not.toContain('small')
        expect(usable.items.every((item) => !item.archived)).toBe(true)
        const only = (await call(ada, 'GET', `${API}/${ada.orgId}/presets?archived=true`))
          .body as Listing<PresetAnswer>
        expect(only.items.map((item) => item.presetName)).toEqual(['small'])

        const restored = await call(
          { token: ada.token },
          'PATCH',
          `${API}/${ada.orgId}/presets/small`,
          { body: { archived: false } },
        )
        expect(restored.body).toMatchObject({ archived: false })
        const served = await deliver(ada.cloudName, 'p:small', 'presets/photo.png')
        expect(served.status).toBe(200)
        expect(await widthOf(served)).toBe(10)
      })

      it('is used by delivery at once after a change, with its variables', async () => {
        await addFile(ada.orgId, 'presets/var.png', 50)
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: {
            presetName: 'sized',
            transformation: 't.resize(w:$w)',
            params: { w: { type: 'integer', default: 20 } },
          },
        })
        expect(await widthOf(await deliver(ada.cloudName, 'p:sized', 'presets/var.png'))).toBe(20)
        expect(
          await widthOf(await deliver(ada.cloudName, 'p:sized(w:15)', 'presets/var.png')),
        ).toBe(15)
        await call(ada, 'PATCH', `${API}/${ada.orgId}/presets/sized`, {
          body: { params: { w: { type: 'integer', default: 25 } } },
        })
        expect(await widthOf(await deliver(ada.cloudName, 'p:sized', 'presets/var.png'))).toBe(25)
        await call(ada, 'PATCH', `${API}/${ada.orgId}/presets/sized`, {
          body: {
            transformation: 't.resize(w:$w)~t.flip()',
            params: { w: { type: 'integer', default: 30 } },
          },
        })
        const rotated = await deliver(ada.cloudName, 'p:sized', 'presets/var.png')
        expect(rotated.status).toBe(200)
        expect(await widthOf(rotated)).toBe(30)
        await call(ada, 'DELETE', `${API}/${ada.orgId}/presets/sized`)
        const gone = await deliver(ada.cloudName, 'p:sized', 'presets/var.png')
        expect(gone.status).toBe(400)
        expect(((await gone.json()) as ApiError).message).toBe('Invalid preset: sized')
      })

      it.each([
        ['t.resize(w:abc)', {}],
        ['t.nosuch()', {}],
        ['zz.resize(w:10)', {}],
        ['t.resize(w:10', {}],
        ['t.resize(w:10)~~t.flip()', {}],
        ["' OR '1'='1", {}],
        ['t.blur(s:abc)', {}],
      ])(
        'refuses the transformation %s with 400 and the URL package’s message',
        async (transformation, params) => {
          const answer = await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
            body: { presetName: 'broken', transformation, params },
          })
          expect(answer.status).toBe(400)
          expect((answer.body as ApiError).code).toBe('invalid_transformation')
          const issue = parsePattern(transformation).issues[0]
          expect(issue).toBeDefined()
          expect((answer.body as ApiError).message).toContain(issue?.message)
        },
      )

      it('refuses presets delivery could not use, naming why', async () => {
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: {
            presetName: 'retired',
            transformation: 't.flip()',
            archived: true,
          },
        })
        const cases: [Record<string, unknown>, string][] = [
          [{ transformation: 'original' }, 'A preset needs at least one operation'],
          [{ transformation: 't.resize(w:$w)' }, 'Variable object not defined for the variable $w'],
          [
            {
              transformation: 't.resize(w:$w)',
              params: { w: { type: 'integer', default: 'wide' } },
            },
            "Value for 'w' in 'loop' must be a type of integer",
          ],
          [{ transformation: 'p:nothere' }, 'Invalid preset: nothere'],
          [{ transformation: 'p:retired' }, 'Preset retired is archived'],
          [{ transformation: 'p:loop' }, 'Preset loop nests presets too deeply or in a cycle'],
          [
            {
              transformation: Array.from({ length: 16 }, () => 't.flip()').join('~'),
            },
            'Cannot add more than 15 transformations.',
          ],
        ]
        for (const [body, message] of cases) {
          const answer = await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
            body: { presetName: 'loop', ...body },
          })
          expect(answer.status, JSON.stringify(body)).toBe(400)
          expect(answer.body, JSON.stringify(body)).toEqual({
            code: 'invalid_transformation',
            message,
          })
        }
        // A cycle through another preset is found when the change would close it.
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: { presetName: 'ring-a', transformation: 't.flip()' },
        })
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: { presetName: 'ring-b', transformation: 'p:ring-a~t.grey()' },
        })
        const cycle = await call(ada, 'PATCH', `${API}/${ada.orgId}/presets/ring-a`, {
          body: { transformation: 'p:ring-b' },
        })
        expect(cycle.status).toBe(400)
        expect((cycle.body as ApiError).message).toMatch(/nests presets too deeply or in a cycle/)
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/presets/ring-a`)).body).toMatchObject({
          transformation: 't.flip()',
        })
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/presets/loop`)).status).toBe(404)
      })

      it('refuses bad preset names, bodies and params with 400, and a duplicate with 409', async () => {
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: { presetName: 'unique', transformation: 't.flip()' },
        })
        const before = await holdings(ada.orgId)
        const cases: [unknown, number, string][] = [
          [{ presetName: 'unique', transformation: 't.grey()' }, 409, 'already_exists'],
          [{ presetName: 'has space', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 'a/b', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: '../x', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 'tab\tname', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 'é', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 'x(y)', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: '', transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 'x'.repeat(65), transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 7, transformation: 't.flip()' }, 400, 'invalid_body'],
          [{ presetName: 'ok' }, 400, 'invalid_body'],
          [{ presetName: 'ok', transformation: '' }, 400, 'invalid_body'],
          [{ presetName: 'ok', transformation: '   ' }, 400, 'invalid_body'],
          [{ presetName: 'ok', transformation: 't.flip()\u0000' }, 400, 'invalid_body'],
          [{ presetName: 'ok', transformation: 't.flip()'.repeat(600) }, 400, 'invalid_body'],
          [{ presetName: 'ok', transformation: 't.flip()', params: [] }, 400, 'invalid_body'],
          [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: { w: { type: 'wide' } },
            },
            400,
            'invalid_body',
          ],
          [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: { w: { type: 'integer', default: {} } },
            },
            400,
            'invalid_body',
          ],
          [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: { w: { type: 'string', default: 'a\u0000' } },
            },
            400,
            'invalid_body',
          ],
          [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: { 'w;drop': { type: 'integer' } },
            },
            400,
            'invalid_body',
          ],
          [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: { w: { type: 'integer', sql: "' OR 1" } },
            },
            400,
            'invalid_body',
          ],
          [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: Object.fromEntries(
                Array.from({ length: 21 }, (_, i) => [`v${i}`, { type: 'integer' }]),
              ),
            },
            400,
            'invalid_body',
          ],
          [{ presetName: 'ok', transformation: 't.flip()', archived: 'yes' }, 400, 'invalid_body'],
          [{ presetName: 'ok', transformation: 't.flip()', owner: 'me' }, 400, 'invalid_body'],
          // `_` alone is a valid name (letters, digits, _ and -).
          ...HOSTILE.filter((text) => text !== '_').map((text): [unknown, number, string] => [
            { presetName: text, transformation: 't.flip()' },
            400,
            'invalid_body',
          ]),
          ...HOSTILE.map((text): [unknown, number, string] => [
            { presetName: 'ok', transformation: text },
            400,
            'invalid_transformation',
          ]),
          ...HOSTILE.map((text): [unknown, number, string] => [
            {
              presetName: 'ok',
              transformation: 't.flip()',
              params: { w: { type: text } },
            },
            400,
            'invalid_body',
          ]),
        ]
        for (const [body, status, code] of cases) {
          const answer = await call(ada, 'POST', `${API}/${ada.orgId}/presets`, { body })
          expect(answer.status, JSON.stringify(body)).toBe(status)
          expect((answer.body as ApiError).code, JSON.stringify(body)).toBe(code)
        }
        for (const body of [
          {},
          { archived: 'no' },
          { transformation: 't.nosuch()' },
          { presetName: 'renamed' },
          { params: { w: 3 } },
        ]) {
          const answer = await call(ada, 'PATCH', `${API}/${ada.orgId}/presets/unique`, { body })
          expect(answer.status, JSON.stringify(body)).toBe(400)
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it.each([
        'nothere',
        'a b',
        encodeURIComponent("' OR '1'='1"),
        encodeURIComponent('x;drop'),
        'x'.repeat(200),
      ])(
        'answers 404 preset_not_found for the preset name %s on every preset call',
        async (name) => {
          for (const [method, body] of [
            ['GET', undefined],
            ['PATCH', { archived: true }],
            ['DELETE', undefined],
          ] as const) {
            const answer = await call(
              { token: ada.token },
              method,
              `${API}/${ada.orgId}/presets/${name}`,
              body === undefined ? {} : { body },
            )
            expect(answer.status, method).toBe(404)
            expect((answer.body as ApiError).code, method).toBe('preset_not_found')
          }
        },
      )

      it.each(['archived=maybe', 'pageNo=0', 'pageSize=500', 'pageNo=2&pageNo=3'])(
        'refuses the preset listing query %s with 400',
        async (query) => {
          const answer = await call(ada, 'GET', `${API}/${ada.orgId}/presets?${query}`)
          expect(answer.status).toBe(400)
          expect((answer.body as ApiError).code).toBe('invalid_query')
        },
      )
    })

    describe('access', () => {
      /** One call of every route, each aimed at Ada's organisation and things in it. */
      async function everyRoute(orgId: string, fileId: string) {
        return [
          ['GET', `${API}/${orgId}/files`, undefined],
          ['GET', `${API}/${orgId}/files?path=access`, undefined],
          ['GET', `${API}/${orgId}/files/${fileId}`, undefined],
          ['PATCH', `${API}/${orgId}/files/${fileId}`, { name: 'stolen.png' }],
          ['DELETE', `${API}/${orgId}/files/${fileId}`, undefined],
          ['POST', `${API}/${orgId}/folders`, { name: 'intruder' }],
          ['PATCH', `${API}/${orgId}/folders?path=access`, { name: 'moved' }],
          ['DELETE', `${API}/${orgId}/folders?path=access&recursive=true`, undefined],
          [
            'POST',
            `${API}/${orgId}/presets`,
            { presetName: 'intruder', transformation: 't.flip()' },
          ],
          ['GET', `${API}/${orgId}/presets`, undefined],
          ['GET', `${API}/${orgId}/presets/guarded`, undefined],
          ['PATCH', `${API}/${orgId}/presets/guarded`, { archived: true }],
          ['DELETE', `${API}/${orgId}/presets/guarded`, undefined],
        ] as const
      }

      let fileId: string
      beforeAll(async () => {
        fileId = (await addFile(ada.orgId, 'access/secret.png')).id
        await call(ada, 'POST', `${API}/${ada.orgId}/presets`, {
          body: { presetName: 'guarded', transformation: 't.flip()' },
        })
      })

      it('answers 401 without credentials and with an unknown token', async () => {
        const before = await holdings(ada.orgId)
        for (const [method, path, body] of await everyRoute(ada.orgId, fileId)) {
          const anonymous = await call(undefined, method, path, body === undefined ? {} : { body })
          expect(anonymous.status, `${method} ${path}`).toBe(401)
          expect((anonymous.body as ApiError).code).toBe('unauthenticated')
          const forged = await call(
            { token: `tsk_${'A'.repeat(43)}` },
            method,
            path,
            body === undefined ? {} : { body },
          )
          expect(forged.status, `${method} ${path}`).toBe(401)
          expect((forged.body as ApiError).code).toBe('invalid_token')
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it("gives another organisation's member and token 404 on every route and changes nothing", async () => {
        const before = await holdings(ada.orgId)
        for (const who of [{ cookie: bob.cookie }, { token: bob.token }]) {
          for (const [method, path, body] of await everyRoute(ada.orgId, fileId)) {
            const answer = await call(who, method, path, body === undefined ? {} : { body })
            expect(answer.status, `${method} ${path}`).toBe(404)
            expect((answer.body as ApiError).code, `${method} ${path}`).toBe(
              'organisation_not_found',
            )
          }
        }
        expect(await holdings(ada.orgId)).toEqual(before)
        expect((await deliver(ada.cloudName, 'original', 'access/secret.png')).status).toBe(200)
      })

      it("gives 404 for another organisation's file ids and preset names used in one's own", async () => {
        const before = await holdings(ada.orgId)
        for (const who of [{ cookie: bob.cookie }, { token: bob.token }]) {
          for (const [method, path, body] of await everyRoute(bob.orgId, fileId)) {
            if (method === 'POST' || path.endsWith('/files') || path.endsWith('/presets')) continue
            const answer = await call(who, method, path, body === undefined ? {} : { body })
            expect(answer.status, `${method} ${path}`).toBe(404)
            expect(['file_not_found', 'folder_not_found', 'preset_not_found']).toContain(
              (answer.body as ApiError).code,
            )
          }
        }
        // Bob's own listing shows nothing of Ada's.
        const listing = await call(bob, 'GET', `${API}/${bob.orgId}/files`)
        expect((listing.body as Listing<FileAnswer>).items).toEqual([])
        const presets = await call(bob, 'GET', `${API}/${bob.orgId}/presets`)
        expect((presets.body as Listing<PresetAnswer>).items).toEqual([])
        // A preset of the same name in Bob's organisation is his own, not Ada's.
        const own = await call(bob, 'POST', `${API}/${bob.orgId}/presets`, {
          body: { presetName: 'guarded', transformation: 't.grey()' },
        })
        expect(own.status).toBe(201)
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/presets/guarded`)).body).toMatchObject({
          transformation: 't.flip()',
        })
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it('answers 404 organisation_not_found for organisation ids that are not ids', async () => {
        for (const orgId of [
          'nope',
          encodeURIComponent("' OR '1'='1"),
          '00000000-0000-4000-8000-000000000000',
        ]) {
          for (const who of [{ cookie: ada.cookie }, { token: ada.token }]) {
            const answer = await call(who, 'GET', `${API}/${orgId}/files`)
            expect(answer.status, orgId).toBe(404)
            expect((answer.body as ApiError).code).toBe('organisation_not_found')
          }
        }
      })

      it('lets a member with a session and an API token make every call', async () => {
        for (const who of [{ cookie: ada.cookie }, { token: ada.token }]) {
          const file = await addFile(ada.orgId, `every/${'cookie' in who ? 'c' : 't'}/f.png`)
          const prefix = `${API}/${ada.orgId}`
          const name = 'cookie' in who ? 'by-cookie' : 'by-token'
          const steps: [string, string, unknown, number][] = [
            ['GET', `${prefix}/files?path=every`, undefined, 200],
            ['GET', `${prefix}/files/${file.id}`, undefined, 200],
            ['PATCH', `${prefix}/files/${file.id}`, { name: 'g.png' }, 200],
            ['POST', `${prefix}/folders`, { name, path: 'every' }, 201],
            ['PATCH', `${prefix}/folders?path=every/${name}`, { name: `${name}-2` }, 200],
            ['DELETE', `${prefix}/folders?path=every/${name}-2`, undefined, 200],
            ['POST', `${prefix}/presets`, { presetName: name, transformation: 't.flip()' }, 201],
            ['GET', `${prefix}/presets`, undefined, 200],
            ['GET', `${prefix}/presets/${name}`, undefined, 200],
            ['PATCH', `${prefix}/presets/${name}`, { archived: true }, 200],
            ['DELETE', `${prefix}/presets/${name}`, undefined, 200],
            ['DELETE', `${prefix}/files/${file.id}`, undefined, 200],
          ]
          for (const [method, path, body, status] of steps) {
            const answer = await call(who, method, path, body === undefined ? {} : { body })
            expect(answer.status, `${name} ${method} ${path} ${JSON.stringify(answer.body)}`).toBe(
              status,
            )
          }
        }
      })
    })

    describe('bad bodies', () => {
      const routes = () => [
        ['PATCH', `${API}/${ada.orgId}/files/00000000-0000-4000-8000-000000000000`],
        ['POST', `${API}/${ada.orgId}/folders`],
        ['PATCH', `${API}/${ada.orgId}/folders?path=listing`],
        ['POST', `${API}/${ada.orgId}/presets`],
        ['PATCH', `${API}/${ada.orgId}/presets/guarded`],
      ]

      it('refuses malformed JSON, another media type and bodies over 64 KB on every body route', async () => {
        const before = await holdings(ada.orgId)
        for (const [method, path] of routes()) {
          for (const who of [{ cookie: ada.cookie }, { token: ada.token }]) {
            const label = `${method} ${path} ${'cookie' in who ? 'cookie' : 'token'}`
            const malformed = await call(who, method as string, path as string, {
              raw: '{"name": ',
            })
            expect(malformed.status, label).toBe(400)
            expect((malformed.body as ApiError).code, label).toBe('invalid_json')
            const form = await call(who, method as string, path as string, {
              raw: 'name=x',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            })
            expect(form.status, label).toBe(415)
            const huge = await call(who, method as string, path as string, {
              body: { name: 'x'.repeat(70_000) },
            })
            expect(huge.status, label).toBe(413)
            expect((huge.body as ApiError).code, label).toBe('too_large')
            const scalar = await call(who, method as string, path as string, {
              raw: '"just text"',
            })
            expect(scalar.status, label).toBe(400)
            expect((scalar.body as ApiError).code, label).toBe('invalid_body')
          }
        }
        expect(await holdings(ada.orgId)).toEqual(before)
      })

      it('keeps serving after all of it', async () => {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
        expect((await call(ada, 'GET', `${API}/${ada.orgId}/files?path=listing`)).status).toBe(200)
      })
    })

    describe('the OpenAPI document', () => {
      let document: OpenApiDocument
      beforeAll(async () => {
        document = (await (
          await fetch(`${server.url}/service/openapi.json`)
        ).json()) as OpenApiDocument
      })

      it('describes every answer these tests saw, none of them a 5xx', () => {
        const mine = recorded.filter((entry) => entry.path.startsWith(API))
        expect(mine.length).toBeGreaterThan(300)
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
            for (const problem of conform(document, schema, entry.body)) {
              problems.push(`${entry.method} ${pathname} → ${entry.status}: ${problem}`)
            }
          }
        }
        expect([...new Set(problems)]).toEqual([])
      })

      it('gives the page size the server uses', () => {
        const parameter = document.paths[`${API}/{orgId}/files`]?.get?.parameters?.find(
          (p) => p.name === 'pageSize',
        )
        expect(parameter?.schema.default).toBe(ASSET_PAGE_SIZE)
      })
    })
  },
)
