// Pixelbin's own admin SDK against a running server, beyond files: folders, deletes, presets, the
// playground default, the catalogue, credentials, the organisation, a transformation context and
// usage; malformed fields the SDK would refuse itself are sent with fetch. (Files:
// pixelbin-sdk-files.test.ts.)
import { createReadStream } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../test-server.ts'
import { PLATFORM_ASSETS } from './paths.ts'
import { failureOf, png, usePixelbinSuite, widthOf } from './pixelbin-sdk-suite.ts'

describe.each(testDatabases('server'))("Pixelbin's admin SDK against the server on %s", (kind) => {
  const suite = usePixelbinSuite(kind)
  const { cloudName, local, imagePath } = suite

  // The files suite's first upload, which these tests find, deliver and count.
  beforeAll(async () => {
    await suite.uploadBoot()
  })

  it('makes, finds, climbs and deletes folders by _id', async () => {
    const made = await suite.pixelbin.assets.createFolder({ name: 'winter', path: 'shoes/red' })
    expect(made).toMatchObject({ name: 'winter', path: 'shoes/red', type: 'folder' })
    const details = await suite.pixelbin.assets.getFolderDetails({
      path: 'shoes/red',
      name: 'winter',
    })
    expect(details.map((folder: { _id: string }) => folder._id)).toEqual([made._id])
    expect(
      await suite.pixelbin.assets.getFolderDetails({ path: 'shoes', name: 'nothing' }),
    ).toEqual([])
    const ancestors = await suite.pixelbin.assets.getFolderAncestors({ _id: made._id })
    expect(ancestors.folder._id).toBe(made._id)
    expect(ancestors.ancestors.map((folder: { fullPath: string }) => folder.fullPath)).toEqual([
      'shoes',
      'shoes/red',
    ])
    expect(
      (await suite.pixelbin.assets.updateFolder({ folderId: made._id, isActive: true }))._id,
    ).toBe(made._id)
    const soft = await failureOf(
      suite.pixelbin.assets.updateFolder({ folderId: made._id, isActive: false }),
    )
    expect(soft.code).toBe(400)
    expect(soft.message).toMatch(/isActive/)
    await suite.pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('snow.png', 16)),
      path: 'shoes/red/winter',
      name: 'snow',
    })
    const deleted = await suite.pixelbin.assets.deleteFolder({ _id: made._id })
    expect(deleted[0]._id).toBe(made._id)
    expect(
      (await failureOf(suite.pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/winter/snow' })))
        .code,
    ).toBe(404)
    expect(
      (await failureOf(suite.pixelbin.assets.getFolderAncestors({ _id: made._id }))).code,
    ).toBe(404)
  })

  it('deletes files one by one and several at once', async () => {
    const a = await suite.pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('a.png', 8)),
      name: 'a',
    })
    const b = await suite.pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('b.png', 8)),
      name: 'b',
    })
    const c = await suite.pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('c.png', 8)),
      name: 'c',
    })
    expect((await suite.pixelbin.assets.deleteFile({ fileId: 'a' }))._id).toBe(a._id)
    const both = await suite.pixelbin.assets.deleteFiles({ ids: [b._id, c._id] })
    expect(both.map((file: { _id: string }) => file._id).sort()).toEqual([b._id, c._id].sort())
    expect((await fetch(local(c.url))).status).toBe(404)
  })

  it('adds, lists, reads, updates and deletes presets; delivery uses them', async () => {
    const added = await suite.pixelbin.assets.addPreset({
      presetName: 'square',
      transformation: 't.resize(w:10,h:10)',
    })
    expect(added).toMatchObject({ presetName: 'square', transformation: 't.resize(w:10,h:10)' })
    const listed = await suite.pixelbin.assets.getPresets()
    expect(listed.items.map((preset: { presetName: string }) => preset.presetName)).toContain(
      'square',
    )
    expect((await suite.pixelbin.assets.getPreset({ presetName: 'square' })).archived).toBe(false)
    const boot = await suite.pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/boot' })
    const viaPreset = local(boot.url).replace('/original/', '/p:square/')
    expect(await widthOf(await fetch(viaPreset))).toBe(10)
    expect(
      (await suite.pixelbin.assets.updatePreset({ presetName: 'square', archived: true })).archived,
    ).toBe(true)
    expect((await suite.pixelbin.assets.deletePreset({ presetName: 'square' })).presetName).toBe(
      'square',
    )
    expect((await failureOf(suite.pixelbin.assets.getPreset({ presetName: 'square' }))).code).toBe(
      404,
    )
    expect((await failureOf(suite.rival.assets.getPreset({ presetName: 'square' }))).code).toBe(404)
  })

  it('answers the playground default, the catalogue and credentials', async () => {
    const asset = await suite.pixelbin.assets.getDefaultAssetForPlayground()
    expect(asset.type).toBe('file')
    expect((await fetch(local(asset.url))).status).toBe(200)
    // Before its first image, an organisation gets the demo organisation's public sample.
    const fallback = await suite.rival.assets.getDefaultAssetForPlayground()
    expect(fallback.url).toContain('/v2/demo/')
    expect((await fetch(local(fallback.url))).status).toBe(200)
    const modules = await suite.pixelbin.assets.getModules()
    expect(Object.keys(modules.plugins)).toContain('t')
    const t = await suite.pixelbin.assets.getModule({ identifier: 't' })
    expect(t.operations.map((operation: { identifier: string }) => operation.identifier)).toContain(
      'resize',
    )
    expect((await failureOf(suite.pixelbin.assets.getModule({ identifier: 'nope' }))).code).toBe(
      404,
    )
    const credentials = await failureOf(
      suite.pixelbin.assets.addCredentials({ pluginId: 'erase', credentials: { key: 'x' } }),
    )
    expect(credentials.code).toBe(400)
    expect(credentials.message).toMatch(/runs every model itself/)
    expect(
      (await failureOf(suite.pixelbin.assets.deleteCredentials({ pluginId: 'erase' }))).code,
    ).toBe(400)
  })

  it("answers the token's organisation, a transformation context and usage", async () => {
    const details = await suite.pixelbin.organization.getAppOrgDetails()
    expect(details.org).toMatchObject({ cloudName, name: 'Acme' })
    expect(details.app.permissions).toContain('read')
    expect((await suite.rival.organization.getAppOrgDetails()).org.cloudName).toBe(`rival-${kind}`)

    const boot = await suite.pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/boot' })
    const context = await suite.pixelbin.transformation.getTransformationContext({
      url: local(boot.url).replace('/original/', '/t.resize(w:8)/'),
    })
    expect(context.context).toBeDefined()

    const usage = await suite.pixelbin.billing.getUsageV2()
    expect(usage.storage.used).toBeGreaterThan(0)
    expect(usage.credits).toMatchObject({ used: 0 })
    const old = await suite.pixelbin.billing.getUsage()
    expect(old.storage.used).toBe(usage.storage.used)
  })

  it('refuses malformed fields with 400 naming the field, and stores nothing', async () => {
    const before = (await suite.pixelbin.assets.listFiles({ onlyFiles: true, path: '' })).page
      .itemTotal
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${suite.server.url}${PLATFORM_ASSETS}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${Buffer.from(suite.token).toString('base64')}`,
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
    const unknown = await fetch(`${suite.server.url}${PLATFORM_ASSETS}/upload/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.token}` },
      body: form,
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toMatchObject({ code: 'unknown_field' })
    const badMetadata = new FormData()
    badMetadata.append('file', new Blob([await png(8, 8)]), 'y.png')
    badMetadata.append('metadata', '{not json')
    const refused = await fetch(`${suite.server.url}${PLATFORM_ASSETS}/upload/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.token}` },
      body: badMetadata,
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toContain('metadata')
    const query = await fetch(`${suite.server.url}${PLATFORM_ASSETS}/listFiles?sort=colour`, {
      headers: { authorization: `Bearer ${suite.token}` },
    })
    expect(query.status).toBe(400)
    expect(((await query.json()) as { message: string }).message).toContain('sort')
    expect(
      (await suite.pixelbin.assets.listFiles({ onlyFiles: true, path: '' })).page.itemTotal,
    ).toBe(before)
  })

  it('needs a token: no token and a session cookie alone get 401', async () => {
    const answer = await fetch(`${suite.server.url}${PLATFORM_ASSETS}/listFiles`, {
      headers: { cookie: 'bg.session=whatever' },
    })
    expect(answer.status).toBe(401)
    expect(await answer.json()).toMatchObject({ code: 'unauthenticated' })
  })
})
