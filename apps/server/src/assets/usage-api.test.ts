// An organisation's usage and recent files through the real server, on PGlite and PostgreSQL:
// the counts follow uploads, derived images and deletes; recent files span every folder, newest
// first, paged as every list is; another organisation's id, or none, gets 404 and nothing else.
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { type CallOptions, expectError, uploadDirect } from '../test-client.ts'
import { testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { ASSETS, RECENT_PAGE_SIZE } from './paths.ts'

const API = `${ASSETS}/org`
const BUDGET = 64 * 1024 * 1024

interface Usage {
  storage: { files: number; bytes: number }
  derivedCache: { entries: number; bytes: number; budgetBytes: number }
  credits: { balance: number }
}

interface RecentFiles {
  items: { _id: string; name: string; fullPath: string; size: number; url: string }[]
  page: { current: number; size: number; hasNext: boolean; itemTotal: number; type: string }
}

const png = (width: number) =>
  sharp({ create: { width, height: width, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer()

describe.each(testDatabases('database'))('usage and recent files on %s', (kind) => {
  let ada: { cookie: string; orgId: string; cloudName: string; token: string }
  let bob: { cookie: string; orgId: string }
  const sizes = new Map<string, number>()

  const call = (method: string, path: string, options: CallOptions) =>
    suite.call(method, path, options)

  /** Uploads a PNG with Ada's API token, as a server would. */
  async function upload(path: string, name: string, width: number) {
    const bytes = await png(width)
    const body = new FormData()
    body.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name)
    body.set('path', path)
    const answer = await uploadDirect(suite.server.url, ada.token, body)
    expect(answer.status, await answer.clone().text()).toBe(200)
    sizes.set(path === '' ? name : `${path}/${name}`, bytes.length)
  }

  const usageOf = async (who: { cookie: string; orgId: string }) => {
    const answer = await call('GET', `${API}/${who.orgId}/usage`, { cookie: who.cookie })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return answer.body as Usage
  }

  const suite = useTestServer(kind, { DERIVED_CACHE_MAX_BYTES: String(BUDGET) })

  beforeAll(async () => {
    const first = await suite.client.signup({ firstName: 'Ada' })
    const made = await suite.call(
      'POST',
      `/service/panel/organization/v1.0/${first.organisation._id}/tokens`,
      { cookie: first.cookie, body: { name: 'usage' } },
    )
    ada = {
      cookie: first.cookie,
      orgId: first.organisation._id,
      cloudName: first.organisation.cloudName,
      token: (made.body as { token: string }).token,
    }
    const second = await suite.client.signup({ firstName: 'Bob' })
    bob = { cookie: second.cookie, orgId: second.organisation._id }
  }, 60_000)

  it('counts nothing but the credits for a new organisation', async () => {
    const usage = await usageOf(ada)
    expect(usage).toEqual({
      storage: { files: 0, bytes: 0 },
      derivedCache: { entries: 0, bytes: 0, budgetBytes: BUDGET },
      credits: { balance: usage.credits.balance },
    })
    expect(usage.credits.balance).toBeGreaterThan(0)
    const recent = await call('GET', `${API}/${ada.orgId}/recent-files`, { cookie: ada.cookie })
    expect(recent.body).toEqual({
      items: [],
      page: { current: 1, size: RECENT_PAGE_SIZE, hasNext: false, itemTotal: 0, type: 'number' },
    })
  })

  it('counts the stored originals of every folder and the derived images delivery made', async () => {
    await upload('', 'top.png', 20)
    await upload('shoes', 'red.png', 30)
    await upload('shoes/summer', 'blue.png', 40)
    const bytes = [...sizes.values()].reduce((sum, size) => sum + size, 0)
    expect((await usageOf(ada)).storage).toEqual({ files: 3, bytes })

    const delivered = await fetch(
      `${suite.server.url}/v2/${ada.cloudName}/t.resize(w:10)/shoes/red.png`,
    )
    expect(delivered.status).toBe(200)
    await delivered.arrayBuffer()
    // The derived image is indexed after the answer is sent.
    const { repo } = suite.server.services.context
    for (let tries = 0; tries < 100; tries++) {
      if (((await repo.organisationUsage(ada.orgId))?.derivedEntries ?? 0) > 0) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const usage = await usageOf(ada)
    expect(usage.derivedCache.entries).toBe(1)
    expect(usage.derivedCache.bytes).toBeGreaterThan(0)
    expect(usage.derivedCache.budgetBytes).toBe(BUDGET)
    // Bob's organisation holds none of it.
    expect((await usageOf(bob)).storage).toEqual({ files: 0, bytes: 0 })
    expect((await usageOf(bob)).derivedCache.entries).toBe(0)
  })

  it('lists recent files across folders, newest first, with a SPEC §7.2 page', async () => {
    const first = await call('GET', `${API}/${ada.orgId}/recent-files?pageSize=2`, {
      cookie: ada.cookie,
    })
    expect(first.status).toBe(200)
    expect(first.response.headers.get('cache-control')).toBe('no-store')
    const page1 = first.body as RecentFiles
    expect(page1.items.map((file) => file.fullPath)).toEqual([
      'shoes/summer/blue.png',
      'shoes/red.png',
    ])
    expect(page1.page).toEqual({ current: 1, size: 2, hasNext: true, itemTotal: 3, type: 'number' })
    expect(page1.items[0]?.url).toBe(
      `${suite.server.config.publicUrl}/v2/${ada.cloudName}/original/shoes/summer/blue.png`,
    )
    const second = await call('GET', `${API}/${ada.orgId}/recent-files?pageSize=2&pageNo=2`, {
      cookie: ada.cookie,
    })
    const page2 = second.body as RecentFiles
    expect(page2.items.map((file) => file.fullPath)).toEqual(['top.png'])
    expect(page2.page.hasNext).toBe(false)
  })

  it('follows a delete: the file, its bytes and its derived images are no longer counted', async () => {
    const recent = (await call('GET', `${API}/${ada.orgId}/recent-files`, { cookie: ada.cookie }))
      .body as RecentFiles
    const red = recent.items.find((file) => file.fullPath === 'shoes/red.png')
    expect(red).toBeDefined()
    const deleted = await call('DELETE', `${API}/${ada.orgId}/files/${red?._id}`, {
      cookie: ada.cookie,
    })
    expect(deleted.status).toBe(200)
    const usage = await usageOf(ada)
    expect(usage.storage).toEqual({
      files: 2,
      bytes: (sizes.get('top.png') ?? 0) + (sizes.get('shoes/summer/blue.png') ?? 0),
    })
    expect(usage.derivedCache).toEqual({ entries: 0, bytes: 0, budgetBytes: BUDGET })
  })

  it("answers 404 for another organisation's id, a made-up id and no session", async () => {
    for (const path of ['usage', 'recent-files']) {
      expectError(
        await call('GET', `${API}/${ada.orgId}/${path}`, { cookie: bob.cookie }),
        404,
        'organisation_not_found',
      )
      expectError(
        await call('GET', `${API}/${crypto.randomUUID()}/${path}`, { cookie: ada.cookie }),
        404,
        'organisation_not_found',
      )
      expectError(
        await call('GET', `${API}/not-an-id/${path}`, { cookie: ada.cookie }),
        404,
        'organisation_not_found',
      )
      const anonymous = await call('GET', `${API}/${ada.orgId}/${path}`, {})
      expect(anonymous.status).toBe(401)
    }
  })

  it('refuses a bad page with 400 and keeps serving', async () => {
    for (const query of [
      'pageSize=0',
      'pageSize=101',
      'pageNo=0',
      'pageNo=x',
      'pageSize=1&pageSize=2',
    ]) {
      expectError(
        await call('GET', `${API}/${ada.orgId}/recent-files?${query}`, { cookie: ada.cookie }),
        400,
        'invalid_query',
      )
    }
    expect((await usageOf(ada)).storage.files).toBe(2)
  })

  it('lets an API token of the organisation read its usage', async () => {
    const token = ada.token
    const answer = await call('GET', `${API}/${ada.orgId}/usage`, { token, sign: false })
    expect(answer.status).toBe(200)
    expect((answer.body as Usage).storage.files).toBe(2)
    expectError(
      await call('GET', `${API}/${bob.orgId}/usage`, { token, sign: false }),
      404,
      'organisation_not_found',
    )
  })
})
