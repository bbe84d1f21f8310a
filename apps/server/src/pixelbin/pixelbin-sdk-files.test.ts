// Pixelbin's own admin SDK against a running server, the files part of the platform API: every
// upload kind stores its fields and delivers (a private file needs a signature), the listing and
// tag filter filter, an update changes what delivery and the listing show, and another
// organisation's token finds nothing. (Folders, presets and the other parts:
// pixelbin-sdk-admin.test.ts.)
import { createReadStream } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { signWithKey, testDatabases } from '../test-server.ts'
import { failureOf, usePixelbinSuite, widthOf } from './pixelbin-sdk-suite.ts'

describe.each(testDatabases('server'))("Pixelbin's admin SDK against the server on %s", (kind) => {
  const suite = usePixelbinSuite(kind)
  const { local, imagePath } = suite

  it('fileUpload stores tags, metadata and access; the file delivers through its URL', async () => {
    const file = createReadStream(await imagePath('boot.png', 40))
    const stored = await suite.pixelbin.assets.fileUpload({
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
      suite.pixelbin.assets.fileUpload({
        file: createReadStream(await imagePath('boot2.png', 20)),
        path: 'shoes/red',
        name: 'boot',
      }),
    )
    expect(again.code).toBe(409)
    expect(again.message).toMatch(/already exists/)
    const beside = await suite.pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('boot3.png', 20)),
      path: 'shoes/red',
      name: 'boot',
      filenameOverride: true,
    })
    expect(beside.name).toMatch(/^boot_[0-9a-f]{6}\.png$/)
  })

  it('a private file is delivered only through a signed URL', async () => {
    const stored = await suite.pixelbin.assets.fileUpload({
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
    const signed = await signWithKey(url, suite.key)
    const ok = await fetch(signed)
    expect(ok.status).toBe(200)
    expect(await widthOf(ok)).toBe(30)
    const resized = await signWithKey(url.replace('/original/', '/t.resize(w:12)/'), suite.key)
    expect(await widthOf(await fetch(resized))).toBe(12)
    expect((await fetch(url.replace('/original/', '/t.resize(w:12)/'))).status).toBe(401)
    // Merged into a public file, the private one still needs the signature.
    const boot = await suite.pixelbin.assets.getFileByFileId({ fileId: 'shoes/red/boot' })
    const merged = local(boot.url).replace('/original/', `/t.merge(i:${stored._id})/`)
    const unsigned = await fetch(merged)
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ code: 'invalid_signature' })
    const signedMerge = await signWithKey(merged, suite.key)
    expect((await fetch(signedMerge)).status).toBe(200)
  })

  it('urlUpload stores a fetched file with its fields', async () => {
    const stored = await suite.pixelbin.assets.urlUpload({
      url: `${suite.source.base}/remote.png`,
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
    const level = await suite.pixelbin.assets.listFiles({ path: 'shoes' })
    expect(
      level.items.map((item: { name: string; type: string }) => `${item.type}:${item.name}`),
    ).toEqual(['folder:red', 'file:blue.png'])
    expect(level.page).toMatchObject({ type: 'number', current: 1, hasNext: false, itemTotal: 2 })
    const folder = level.items[0]
    expect(folder._id).toMatch(/^[0-9a-f-]{36}$/)

    const red = await suite.pixelbin.assets.listFiles({ tags: ['red'] })
    expect(red.items.map((item: { fullPath: string }) => item.fullPath)).toEqual([
      'shoes/red/boot.png',
    ])
    const both = await suite.pixelbin.assets.listFiles({ tags: ['red', 'blue'] })
    expect(both.items).toEqual([])
    const named = await suite.pixelbin.assets.listFiles({ name: 'BLU' })
    expect(named.items.map((item: { fullPath: string }) => item.fullPath)).toEqual([
      'shoes/blue.png',
    ])
    const pngs = await suite.pixelbin.assets.listFiles({
      format: 'png',
      onlyFiles: true,
      sort: '-createdAt',
    })
    expect(pngs.items.length).toBeGreaterThanOrEqual(4)
    expect(pngs.items.every((item: { type: string }) => item.type === 'file')).toBe(true)
    const folders = await suite.pixelbin.assets.listFiles({ onlyFolders: true })
    expect(folders.items.map((item: { name: string }) => item.name)).toEqual(['shoes', 'vault'])

    const paginator = suite.pixelbin.assets.listFilesPaginator({ path: 'shoes/red', pageSize: 1 })
    const seen: string[] = []
    while (paginator.hasNext()) {
      const page = await paginator.next()
      seen.push(...page.items.map((item: { name: string }) => item.name))
    }
    expect(seen).toHaveLength(2)
    expect(seen[0]).toBe('boot.png')
  })

  it('finds a file by _id and by path; updateFile changes what listing and delivery show', async () => {
    const byPath = await suite.pixelbin.assets.getFileByFileId({ fileId: 'shoes/blue' })
    expect(byPath.fullPath).toBe('shoes/blue.png')
    const byId = await suite.pixelbin.assets.getFileById({ _id: byPath._id })
    expect(byId.fullPath).toBe('shoes/blue.png')
    // An answer's fileId passed back as it is finds the file too.
    expect((await suite.pixelbin.assets.getFileByFileId({ fileId: byPath.fileId }))._id).toBe(
      byPath._id,
    )

    // A derived image answered twice (the second time from the delivery fast lane) is refused
    // unsigned as soon as the file is private.
    const derived = local(byPath.url).replace('/original/', '/t.resize(w:10)/')
    expect((await fetch(derived)).status).toBe(200)
    expect((await fetch(derived)).status).toBe(200)
    const updated = await suite.pixelbin.assets.updateFile({
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
    const tagged = await suite.pixelbin.assets.listFiles({ tags: ['new'] })
    expect(tagged.items.map((item: { _id: string }) => item._id)).toEqual([byPath._id])
    expect((await fetch(local(byPath.url))).status).toBe(401)
    expect((await fetch(derived)).status).toBe(401)
    await suite.pixelbin.assets.updateFile({ fileId: 'shoes/blue', access: 'public-read' })
    expect((await fetch(local(byPath.url))).status).toBe(200)

    const moved = await suite.pixelbin.assets.updateFile({
      fileId: 'shoes/blue',
      name: 'navy',
      path: 'archive',
    })
    expect(moved.fullPath).toBe('archive/navy.png')
    expect((await fetch(local(moved.url))).status).toBe(200)
    expect((await fetch(local(byPath.url))).status).toBe(404)
    expect((await suite.pixelbin.assets.getFileByFileId({ fileId: 'archive/navy' }))._id).toBe(
      byPath._id,
    )
  })

  it("gives another organisation's token 404 exactly as for nothing, and shows it nothing", async () => {
    const mine = await suite.pixelbin.assets.getFileByFileId({ fileId: 'archive/navy' })
    const missing = await failureOf(
      suite.pixelbin.assets.getFileById({ _id: '00000000-0000-4000-8000-000000000000' }),
    )
    const theirs = await failureOf(suite.rival.assets.getFileById({ _id: mine._id }))
    expect(theirs.code).toBe(404)
    expect(theirs.details.code).toBe(missing.details.code)
    const folderId = (await suite.pixelbin.assets.listFiles({ onlyFolders: true })).items[0]._id
    for (const call of [
      () => suite.rival.assets.getFileByFileId({ fileId: 'archive/navy' }),
      () => suite.rival.assets.updateFile({ fileId: 'archive/navy', tags: ['stolen'] }),
      () => suite.rival.assets.deleteFile({ fileId: 'archive/navy' }),
      () => suite.rival.assets.getFolderAncestors({ _id: folderId }),
      () => suite.rival.assets.deleteFolder({ _id: folderId }),
    ]) {
      const refused = await failureOf(call())
      expect(refused.code).toBe(404)
      expect(refused.details.message).toMatch(/^No (file|folder) /)
    }
    expect((await suite.rival.assets.listFiles({ tags: ['blue'] })).items).toEqual([])
    expect((await suite.rival.assets.deleteFiles({ ids: [mine._id] })).length).toBe(0)
    expect((await suite.pixelbin.assets.getFileById({ _id: mine._id })).tags).toEqual([
      'blue',
      'new',
    ])
  })
})
