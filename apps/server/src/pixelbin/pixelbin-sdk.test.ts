// Pixelbin's own admin SDK (`@pixelbin/admin` 4.2.0, pinned), unchanged, against a running
// server: PixelbinConfig's domain is the test server and apiSecret a token made here. Every call
// of the platform API's assets, organisation, transformation and billing parts is made through
// the SDK and its outcome checked (the file delivers, the tag filter filters, a private file needs
// a signature, an update changes what delivery and the listing show, another organisation's token
// finds nothing). Malformed fields the SDK would refuse itself are sent with fetch.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PixelbinClient, PixelbinConfig } from '@pixelbin/admin'
import { signUrl } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_TOKEN_PREFIX, randomToken, sha256 } from '../accounts/auth.ts'
import type { SigningKey } from '../db/index.ts'
import { startTestServer, type TestServer, testDatabases } from '../test-server.ts'
import { PLATFORM_ASSETS } from './paths.ts'

const png = (width: number, height: number, colour = { r: 200, g: 40, b: 40 }) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer()

interface SdkError {
  name: string
  message: string
  code: number
  details: { code?: string; message?: string }
}

/** The SDK's rejection of `call`, as PDKServerResponseError carries it. */
async function failureOf(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call
  } catch (error) {
    return error as SdkError
  }
  throw new Error('the call succeeded')
}

describe.each(testDatabases('server'))("Pixelbin's admin SDK against the server on %s", (kind) => {
  let server: TestServer
  let source: Server
  let sourceBase: string
  let dir: string
  let token: string
  let rivalToken: string
  let key: SigningKey
  let pixelbin: PixelbinClient
  let rival: PixelbinClient
  const cloudName = `acme-${kind}`

  /** A delivery URL answered by the test server (the answer's origin is PUBLIC_URL). */
  const local = (url: string) => {
    const parsed = new URL(url)
    return `${server.url}${parsed.pathname}${parsed.search}`
  }
  const imagePath = async (
    name: string,
    width: number,
    colour?: { r: number; g: number; b: number },
  ) => {
    const path = join(dir, name)
    await writeFile(path, await png(width, width, colour))
    return path
  }
  const widthOf = async (response: Response) =>
    (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width

  async function tokenOf(organisationId: string): Promise<string> {
    const made = `${API_TOKEN_PREFIX}${randomToken()}`
    await server.services.context.repo.createApiToken(organisationId, {
      name: 'sdk suite',
      tokenHash: sha256(made),
      prefix: made.slice(0, 10),
      createdBy: null,
    })
    return made
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-sdk-'))
    const remote = await png(24, 24, { r: 10, g: 120, b: 200 })
    source = createServer((req, res) => {
      if (req.url === '/remote.png') {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end(remote)
      } else {
        res.writeHead(404)
        res.end()
      }
    })
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve))
    sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`
    server = await startTestServer(kind, { REMOTE_ALLOW_HOSTS: '127.0.0.1' })
    const { repo } = server.services.context
    const acme = await repo.createOrganisation({ cloudName, name: 'Acme' })
    const other = await repo.createOrganisation({ cloudName: `rival-${kind}`, name: 'Rival' })
    token = await tokenOf(acme.id)
    rivalToken = await tokenOf(other.id)
    key = await repo.createSigningKey(acme.id)
    pixelbin = new PixelbinClient(new PixelbinConfig({ domain: server.url, apiSecret: token }))
    rival = new PixelbinClient(new PixelbinConfig({ domain: server.url, apiSecret: rivalToken }))
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await new Promise((resolve) => source?.close(resolve))
    await rm(dir, { recursive: true, force: true })
  })

  it('fileUpload stores tags, metadata and access; the file delivers through its URL', async () => {
    const file = createReadStream(await imagePath('boot.png', 40))
    const stored = await pixelbin.assets.fileUpload({
      file,
      path: 'shoes/red',
      name: 'boot',
      access: 'public-read',
      tags: ['red', 'sale'],
      metadata: { sku: 'B-1', stock: 3 },
    })
    expect(stored).toMatchObject({
      name: 'boot.png',
      path: 'shoes/red',
      fullPath: 'shoes/red/boot.png',
      format: 'png',
      access: 'public-read',
      tags: ['red', 'sale'],
      metadata: { sku: 'B-1', stock: 3 },
    })
    expect(stored._id).toMatch(/^[0-9a-f-]{36}$/)
    const delivered = await fetch(local(stored.url))
    expect(delivered.status).toBe(200)
    expect(await widthOf(delivered)).toBe(40)
    // Overwrite off: a second upload to the name is refused; filenameOverride stores it beside.
    const again = await failureOf(
      pixelbin.assets.fileUpload({
        file: createReadStream(await imagePath('boot2.png', 20)),
        path: 'shoes/red',
        name: 'boot',
      }),
    )
    expect(again.code).toBe(409)
    expect(again.message).toMatch(/already exists/)
    const beside = await pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('boot3.png', 20)),
      path: 'shoes/red',
      name: 'boot',
      filenameOverride: true,
    })
    expect(beside.name).toMatch(/^boot_[0-9a-f]{6}\.png$/)
  })

  it('a private file is delivered only through a signed URL', async () => {
    const stored = await pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('secret.png', 30)),
      path: 'vault',
      name: 'secret',
      access: 'private',
    })
    expect(stored.access).toBe('private')
    const url = local(stored.url)
    const refused = await fetch(url)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: 'invalid_signature' })
    const signed = await signUrl(url, {
      accessKey: key.accessKey,
      token: key.secret,
      expirySeconds: 60,
    })
    const ok = await fetch(signed)
    expect(ok.status).toBe(200)
    expect(await widthOf(ok)).toBe(30)
    const resized = await signUrl(url.replace('/original/', '/t.resize(w:12)/'), {
      accessKey: key.accessKey,
      token: key.secret,
      expirySeconds: 60,
    })
    expect(await widthOf(await fetch(resized))).toBe(12)
    expect((await fetch(url.replace('/original/', '/t.resize(w:12)/'))).status).toBe(401)
    // Merged into a public file, the private one still needs the signature.
    const boot = await pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/boot' })
    const merged = local(boot.url).replace('/original/', `/t.merge(i:${stored._id})/`)
    const unsigned = await fetch(merged)
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ code: 'invalid_signature' })
    const signedMerge = await signUrl(merged, {
      accessKey: key.accessKey,
      token: key.secret,
      expirySeconds: 60,
    })
    expect((await fetch(signedMerge)).status).toBe(200)
  })

  it('urlUpload stores a fetched file with its fields', async () => {
    const stored = await pixelbin.assets.urlUpload({
      url: `${sourceBase}/remote.png`,
      path: 'shoes',
      name: 'blue',
      tags: ['blue'],
      metadata: { sku: 'U-2' },
    })
    expect(stored).toMatchObject({
      fullPath: 'shoes/blue.png',
      tags: ['blue'],
      metadata: { sku: 'U-2' },
    })
    expect(await widthOf(await fetch(local(stored.url)))).toBe(24)
  })

  it('listFiles lists a level, and filters by tags, name and format; the paginator pages', async () => {
    const level = await pixelbin.assets.listFiles({ path: 'shoes' })
    expect(
      level.items.map((item: { name: string; type: string }) => `${item.type}:${item.name}`),
    ).toEqual(['folder:red', 'file:blue.png'])
    expect(level.page).toMatchObject({ type: 'number', current: 1, hasNext: false, itemTotal: 2 })
    const folder = level.items[0]
    expect(folder._id).toMatch(/^[0-9a-f-]{36}$/)

    const red = await pixelbin.assets.listFiles({ tags: ['red'] })
    expect(red.items.map((item: { fullPath: string }) => item.fullPath)).toEqual([
      'shoes/red/boot.png',
    ])
    const both = await pixelbin.assets.listFiles({ tags: ['red', 'blue'] })
    expect(both.items).toEqual([])
    const named = await pixelbin.assets.listFiles({ name: 'BLU' })
    expect(named.items.map((item: { fullPath: string }) => item.fullPath)).toEqual([
      'shoes/blue.png',
    ])
    const pngs = await pixelbin.assets.listFiles({
      format: 'png',
      onlyFiles: true,
      sort: '-createdAt',
    })
    expect(pngs.items.length).toBeGreaterThanOrEqual(4)
    expect(pngs.items.every((item: { type: string }) => item.type === 'file')).toBe(true)
    const folders = await pixelbin.assets.listFiles({ onlyFolders: true })
    expect(folders.items.map((item: { name: string }) => item.name)).toEqual(['shoes', 'vault'])

    const paginator = pixelbin.assets.listFilesPaginator({ path: 'shoes/red', pageSize: 1 })
    const seen: string[] = []
    while (paginator.hasNext()) {
      const page = await paginator.next()
      seen.push(...page.items.map((item: { name: string }) => item.name))
    }
    expect(seen).toHaveLength(2)
    expect(seen[0]).toBe('boot.png')
  })

  it('finds a file by _id and by path; updateFile changes what listing and delivery show', async () => {
    const byPath = await pixelbin.assets.getFileByFileId({ fileId: 'shoes/blue' })
    expect(byPath.fullPath).toBe('shoes/blue.png')
    const byId = await pixelbin.assets.getFileById({ _id: byPath._id })
    expect(byId.fullPath).toBe('shoes/blue.png')
    // An answer's fileId passed back as it is finds the file too.
    expect((await pixelbin.assets.getFileByFileId({ fileId: byPath.fileId }))._id).toBe(byPath._id)

    // A derived image answered twice (the second time from the delivery fast lane) is refused
    // unsigned as soon as the file is private.
    const derived = local(byPath.url).replace('/original/', '/t.resize(w:10)/')
    expect((await fetch(derived)).status).toBe(200)
    expect((await fetch(derived)).status).toBe(200)
    const updated = await pixelbin.assets.updateFile({
      fileId: 'shoes/blue',
      tags: ['blue', 'new'],
      metadata: { sku: 'U-3' },
      access: 'private',
    })
    expect(updated).toMatchObject({
      tags: ['blue', 'new'],
      metadata: { sku: 'U-3' },
      access: 'private',
    })
    const tagged = await pixelbin.assets.listFiles({ tags: ['new'] })
    expect(tagged.items.map((item: { _id: string }) => item._id)).toEqual([byPath._id])
    expect((await fetch(local(byPath.url))).status).toBe(401)
    expect((await fetch(derived)).status).toBe(401)
    await pixelbin.assets.updateFile({ fileId: 'shoes/blue', access: 'public-read' })
    expect((await fetch(local(byPath.url))).status).toBe(200)

    const moved = await pixelbin.assets.updateFile({
      fileId: 'shoes/blue',
      name: 'navy',
      path: 'archive',
    })
    expect(moved.fullPath).toBe('archive/navy.png')
    expect((await fetch(local(moved.url))).status).toBe(200)
    expect((await fetch(local(byPath.url))).status).toBe(404)
    expect((await pixelbin.assets.getFileByFileId({ fileId: 'archive/navy' }))._id).toBe(byPath._id)
  })

  it("gives another organisation's token 404 exactly as for nothing, and shows it nothing", async () => {
    const mine = await pixelbin.assets.getFileByFileId({ fileId: 'archive/navy' })
    const missing = await failureOf(
      pixelbin.assets.getFileById({ _id: '00000000-0000-4000-8000-000000000000' }),
    )
    const theirs = await failureOf(rival.assets.getFileById({ _id: mine._id }))
    expect(theirs.code).toBe(404)
    expect(theirs.details.code).toBe(missing.details.code)
    const folderId = (await pixelbin.assets.listFiles({ onlyFolders: true })).items[0]._id
    for (const call of [
      () => rival.assets.getFileByFileId({ fileId: 'archive/navy' }),
      () => rival.assets.updateFile({ fileId: 'archive/navy', tags: ['stolen'] }),
      () => rival.assets.deleteFile({ fileId: 'archive/navy' }),
      () => rival.assets.getFolderAncestors({ _id: folderId }),
      () => rival.assets.deleteFolder({ _id: folderId }),
    ]) {
      const refused = await failureOf(call())
      expect(refused.code).toBe(404)
      expect(refused.details.message).toMatch(/^No (file|folder) /)
    }
    expect((await rival.assets.listFiles({ tags: ['blue'] })).items).toEqual([])
    expect((await rival.assets.deleteFiles({ ids: [mine._id] })).length).toBe(0)
    expect((await pixelbin.assets.getFileById({ _id: mine._id })).tags).toEqual(['blue', 'new'])
  })

  it('makes, finds, climbs and deletes folders by _id', async () => {
    const made = await pixelbin.assets.createFolder({ name: 'winter', path: 'shoes/red' })
    expect(made).toMatchObject({ name: 'winter', path: 'shoes/red', type: 'folder' })
    const details = await pixelbin.assets.getFolderDetails({ path: 'shoes/red', name: 'winter' })
    expect(details.map((folder: { _id: string }) => folder._id)).toEqual([made._id])
    expect(await pixelbin.assets.getFolderDetails({ path: 'shoes', name: 'nothing' })).toEqual([])
    const ancestors = await pixelbin.assets.getFolderAncestors({ _id: made._id })
    expect(ancestors.folder._id).toBe(made._id)
    expect(ancestors.ancestors.map((folder: { fullPath: string }) => folder.fullPath)).toEqual([
      'shoes',
      'shoes/red',
    ])
    expect((await pixelbin.assets.updateFolder({ folderId: made._id, isActive: true }))._id).toBe(
      made._id,
    )
    const soft = await failureOf(
      pixelbin.assets.updateFolder({ folderId: made._id, isActive: false }),
    )
    expect(soft.code).toBe(400)
    expect(soft.message).toMatch(/isActive/)
    await pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('snow.png', 16)),
      path: 'shoes/red/winter',
      name: 'snow',
    })
    const deleted = await pixelbin.assets.deleteFolder({ _id: made._id })
    expect(deleted[0]._id).toBe(made._id)
    expect(
      (await failureOf(pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/winter/snow' }))).code,
    ).toBe(404)
    expect((await failureOf(pixelbin.assets.getFolderAncestors({ _id: made._id }))).code).toBe(404)
  })

  it('deletes files one by one and several at once', async () => {
    const a = await pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('a.png', 8)),
      name: 'a',
    })
    const b = await pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('b.png', 8)),
      name: 'b',
    })
    const c = await pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('c.png', 8)),
      name: 'c',
    })
    expect((await pixelbin.assets.deleteFile({ fileId: 'a' }))._id).toBe(a._id)
    const both = await pixelbin.assets.deleteFiles({ ids: [b._id, c._id] })
    expect(both.map((file: { _id: string }) => file._id).sort()).toEqual([b._id, c._id].sort())
    expect((await fetch(local(c.url))).status).toBe(404)
  })

  it('adds, lists, reads, updates and deletes presets; delivery uses them', async () => {
    const added = await pixelbin.assets.addPreset({
      presetName: 'square',
      transformation: 't.resize(w:10,h:10)',
    })
    expect(added).toMatchObject({ presetName: 'square', transformation: 't.resize(w:10,h:10)' })
    const listed = await pixelbin.assets.getPresets()
    expect(listed.items.map((preset: { presetName: string }) => preset.presetName)).toContain(
      'square',
    )
    expect((await pixelbin.assets.getPreset({ presetName: 'square' })).archived).toBe(false)
    const boot = await pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/boot' })
    const viaPreset = local(boot.url).replace('/original/', '/p:square/')
    expect(await widthOf(await fetch(viaPreset))).toBe(10)
    expect(
      (await pixelbin.assets.updatePreset({ presetName: 'square', archived: true })).archived,
    ).toBe(true)
    expect((await pixelbin.assets.deletePreset({ presetName: 'square' })).presetName).toBe('square')
    expect((await failureOf(pixelbin.assets.getPreset({ presetName: 'square' }))).code).toBe(404)
    expect((await failureOf(rival.assets.getPreset({ presetName: 'square' }))).code).toBe(404)
  })

  it('answers the playground default, the catalogue and credentials', async () => {
    const asset = await pixelbin.assets.getDefaultAssetForPlayground()
    expect(asset.type).toBe('file')
    expect((await fetch(local(asset.url))).status).toBe(200)
    // Before its first image, an organisation gets the demo organisation's public sample.
    const fallback = await rival.assets.getDefaultAssetForPlayground()
    expect(fallback.url).toContain('/v2/demo/')
    expect((await fetch(local(fallback.url))).status).toBe(200)
    const modules = await pixelbin.assets.getModules()
    expect(Object.keys(modules.plugins)).toContain('t')
    const t = await pixelbin.assets.getModule({ identifier: 't' })
    expect(t.operations.map((operation: { identifier: string }) => operation.identifier)).toContain(
      'resize',
    )
    expect((await failureOf(pixelbin.assets.getModule({ identifier: 'nope' }))).code).toBe(404)
    const credentials = await failureOf(
      pixelbin.assets.addCredentials({ pluginId: 'erase', credentials: { key: 'x' } }),
    )
    expect(credentials.code).toBe(400)
    expect(credentials.message).toMatch(/runs every model itself/)
    expect((await failureOf(pixelbin.assets.deleteCredentials({ pluginId: 'erase' }))).code).toBe(
      400,
    )
  })

  it("answers the token's organisation, a transformation context and usage", async () => {
    const details = await pixelbin.organization.getAppOrgDetails()
    expect(details.org).toMatchObject({ cloudName, name: 'Acme' })
    expect(details.app.permissions).toContain('read')
    expect((await rival.organization.getAppOrgDetails()).org.cloudName).toBe(`rival-${kind}`)

    const boot = await pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/boot' })
    const context = await pixelbin.transformation.getTransformationContext({
      url: local(boot.url).replace('/original/', '/t.resize(w:8)/'),
    })
    expect(context.context).toBeDefined()

    const usage = await pixelbin.billing.getUsageV2()
    expect(usage.storage.used).toBeGreaterThan(0)
    expect(usage.credits).toMatchObject({ used: 0 })
    const old = await pixelbin.billing.getUsage()
    expect(old.storage.used).toBe(usage.storage.used)
  })

  it('refuses malformed fields with 400 naming the field, and stores nothing', async () => {
    const before = (await pixelbin.assets.listFiles({ onlyFiles: true, path: '' })).page.itemTotal
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${server.url}${PLATFORM_ASSETS}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${Buffer.from(token).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
    for (const [body, field] of [
      [{ tags: 'red' }, 'tags'],
      [{ tags: [''] }, 'tags'],
      [{ tags: ['x'.repeat(101)] }, 'tags'],
      [{ access: 'public' }, 'access'],
      [{ metadata: [1, 2] }, 'metadata'],
      [{ isActive: 'yes' }, 'isActive'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const answer = await call('PATCH', '/files/shoes/red/boot', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(
        ((await answer.json()) as { message: string }).message,
        JSON.stringify(body),
      ).toContain(field)
    }
    const form = new FormData()
    form.append('file', new Blob([await png(8, 8)]), 'x.png')
    form.append('colour', 'red')
    const unknown = await fetch(`${server.url}${PLATFORM_ASSETS}/upload/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toMatchObject({ code: 'unknown_field' })
    const badMetadata = new FormData()
    badMetadata.append('file', new Blob([await png(8, 8)]), 'y.png')
    badMetadata.append('metadata', '{not json')
    const refused = await fetch(`${server.url}${PLATFORM_ASSETS}/upload/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: badMetadata,
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toContain('metadata')
    const query = await fetch(`${server.url}${PLATFORM_ASSETS}/listFiles?sort=colour`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(query.status).toBe(400)
    expect(((await query.json()) as { message: string }).message).toContain('sort')
    expect((await pixelbin.assets.listFiles({ onlyFiles: true, path: '' })).page.itemTotal).toBe(
      before,
    )
  })

  it('needs a token: no token and a session cookie alone get 401', async () => {
    const answer = await fetch(`${server.url}${PLATFORM_ASSETS}/listFiles`, {
      headers: { cookie: 'bg.session=whatever' },
    })
    expect(answer.status).toBe(401)
    expect(await answer.json()).toMatchObject({ code: 'unauthenticated' })
  })
})
