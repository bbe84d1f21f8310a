// The library search and the file fields of issue 22 through the panel API (the console's calls;
// the platform API's are in pixelbin/pixelbin-sdk-files.test.ts): uploads keep tags, metadata and
// access; …/listFiles filters by every field and pages; …/tags counts; a file update changes the
// fields or refuses a bad one naming it; …/files/delete deletes several; another organisation's
// member gets 404 and nothing else.
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { uploadDirect } from '../test-client.ts'
import { testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { ASSETS } from './paths.ts'

interface Item {
  _id: string | null
  type: 'file' | 'folder'
  name: string
  fullPath: string
  tags?: string[]
  metadata?: Record<string, unknown>
  access?: string
}
interface Listing {
  items: Item[]
  page: { current: number; size: number; hasNext: boolean; itemTotal: number }
}

const png = (width: number) =>
  sharp({ create: { width, height: width, channels: 3, background: '#884422' } })
    .png()
    .toBuffer()

describe.each(testDatabases('server'))('the library search of the panel API on %s', (kind) => {
  let token: string
  let orgId: string
  let bobCookie: string
  const ids = new Map<string, string>()

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.server.url}${ASSETS}/org/${orgId}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    })
  const names = async (query: string) => {
    const answer = await api(`/listFiles?${query}`)
    expect(answer.status, await answer.clone().text()).toBe(200)
    return ((await answer.json()) as Listing).items.map((item) => item.fullPath)
  }

  async function upload(path: string, name: string, width: number, fields: [string, string][]) {
    const body = new FormData()
    body.set('file', new Blob([new Uint8Array(await png(width))], { type: 'image/png' }), name)
    body.set('path', path)
    for (const [field, value] of fields) body.append(field, value)
    const answer = await uploadDirect(suite.server.url, token, body)
    expect(answer.status, await answer.clone().text()).toBe(200)
    const file = (await answer.json()) as Item & { _id: string }
    ids.set(file.fullPath, file._id)
    return file
  }

  const suite = useTestServer(kind)

  beforeAll(async () => {
    const ada = await suite.client.signup({ firstName: 'Ada' })
    orgId = ada.organisation._id
    const made = await suite.call('POST', `/service/panel/organization/v1.0/${orgId}/tokens`, {
      cookie: ada.cookie,
      body: { name: 'search' },
    })
    token = (made.body as { token: string }).token
    bobCookie = (await suite.client.signup({ firstName: 'Bob' })).cookie
    await upload('shop/shoes', 'boot.png', 40, [
      ['tags', 'red'],
      ['tags', 'sale'],
      ['metadata', '{"sku":"B1","size":42}'],
    ])
    await upload('shop', 'hat.png', 20, [
      ['tags', 'red'],
      ['access', 'private'],
    ])
    await upload('', 'logo.png', 10, [])
  }, 120_000)

  it('keeps what uploads send and answers it', async () => {
    const answer = await api(`/files/${ids.get('shop/shoes/boot.png')}`)
    expect(await answer.json()).toMatchObject({
      tags: ['red', 'sale'],
      metadata: { sku: 'B1', size: 42 },
      access: 'public-read',
    })
  })

  it('filters by tags, metadata, format, access, size, dates and path text', async () => {
    expect(await names('tags=red')).toEqual(['shop/shoes/boot.png', 'shop/hat.png'])
    expect(await names('tags[0]=red&tags[1]=sale')).toEqual(['shop/shoes/boot.png'])
    expect(await names(`metadata=${encodeURIComponent('{"size":42}')}`)).toEqual([
      'shop/shoes/boot.png',
    ])
    expect(await names('access=private')).toEqual(['shop/hat.png'])
    expect(await names('format=jpg')).toEqual([])
    expect(await names('format=png&pathText=shoes')).toEqual(['shop/shoes/boot.png'])
    const big = await names('minSize=1&sort=-size')
    expect(big[0]).toBe('shop/shoes/boot.png')
    expect(
      await names(
        `createdAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      ),
    ).toEqual([])
    expect(await names('tags=red&path=shop/shoes')).toEqual(['shop/shoes/boot.png'])
  })

  it('lists a level without filters and searches below it with a name, paging the whole list', async () => {
    expect(await names('path=shop')).toEqual(['shop/shoes', 'shop/hat.png'])
    // Folders first (by name: shoes before shop), then files.
    expect(await names('name=o')).toEqual(['shop/shoes', 'shop', 'shop/shoes/boot.png', 'logo.png'])
    const first = (await (await api('/listFiles?name=o&pageSize=3')).json()) as Listing
    expect(first.page).toMatchObject({ itemTotal: 4, hasNext: true })
    const second = (await (await api('/listFiles?name=o&pageSize=3&pageNo=2')).json()) as Listing
    expect([...first.items, ...second.items].map((item) => item.fullPath)).toEqual([
      'shop/shoes',
      'shop',
      'shop/shoes/boot.png',
      'logo.png',
    ])
    expect(first.items[0]?._id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses bad parameters with 400 naming them', async () => {
    for (const [query, named] of [
      ['sort=colour', 'sort'],
      ['minSize=-1', 'minSize'],
      ['createdAfter=yesterday', 'createdAfter'],
      ['metadata=%5B1%5D', 'metadata'],
      ['onlyFiles=maybe', 'onlyFiles'],
      ['access=public', 'access'],
    ] as const) {
      const answer = await api(`/listFiles?${query}`)
      expect(answer.status, query).toBe(400)
      expect(((await answer.json()) as { message: string }).message, query).toContain(named)
    }
    expect((await api('/listFiles?path=nowhere')).status).toBe(404)
  })

  it('counts tags, updates the fields and refuses a bad one naming it', async () => {
    expect((await (await api('/tags')).json()) as unknown).toEqual({
      items: [
        { tag: 'red', files: 2 },
        { tag: 'sale', files: 1 },
      ],
    })
    const id = ids.get('logo.png') as string
    const changed = await api(`/files/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ tags: ['brand'], metadata: { owner: 'ada' }, access: 'private' }),
    })
    expect(await changed.json()).toMatchObject({
      tags: ['brand'],
      metadata: { owner: 'ada' },
      access: 'private',
      fullPath: 'logo.png',
    })
    for (const [body, field] of [
      [{ tags: 'brand' }, 'tags'],
      [{ tags: [''] }, 'tags'],
      [{ metadata: [] }, 'metadata'],
      [{ access: 'secret' }, 'access'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const answer = await api(`/files/${id}`, { method: 'PATCH', body: JSON.stringify(body) })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(((await answer.json()) as { message: string }).message).toContain(field)
    }
    expect(await names('tags=brand')).toEqual(['logo.png'])
  })

  it('deletes several files at once; another organisation sees and deletes nothing', async () => {
    const other = await suite.call('GET', `${ASSETS}/org/${orgId}/listFiles?tags=red`, {
      cookie: bobCookie,
    })
    expect(other.status).toBe(404)
    const answer = await api('/files/delete', {
      method: 'POST',
      body: JSON.stringify({
        ids: [ids.get('shop/hat.png'), ids.get('logo.png'), '00000000-0000-4000-8000-000000000000'],
      }),
    })
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as Item[]).map((file) => file.fullPath).sort()).toEqual([
      'logo.png',
      'shop/hat.png',
    ])
    expect(await names('tags=red')).toEqual(['shop/shoes/boot.png'])
    const empty = await api('/files/delete', { method: 'POST', body: JSON.stringify({ ids: [] }) })
    expect(empty.status).toBe(400)
  })
})
