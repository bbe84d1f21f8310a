// Cross-process truth: two server processes (two servers in this test process) on one
// PostgreSQL database, with lookups trusted for an hour, so only the change feed can make a change
// made through one of them show in the other.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, uploadDirect } from '../test-client.ts'
import { type ServerPair, signWithKey, startServerPair, type TestServer } from '../test-server.ts'

const ASSETS = '/service/panel/assets/v1.0'
const ORG = '/service/panel/organization/v1.0'

async function png(width: number): Promise<Buffer> {
  return sharp({ create: { width, height: 5, channels: 3, background: '#39f' } })
    .png()
    .toBuffer()
}

async function widthOf(response: Response): Promise<number | undefined> {
  expect(response.status).toBe(200)
  return (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width
}

describe('changes made through one process, seen by another on the same PostgreSQL', () => {
  let pair: ServerPair
  let first: TestServer
  let second: TestServer
  let token: string
  let storageDir: string

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'tessera-changes-'))
    pair = await startServerPair({
      STORAGE_DIR: storageDir,
      LOOKUP_TTL_MS: '3600000',
      HOT_CACHE_MB: '0',
    })
    ;({ first, second } = pair)
    token = await first.createToken()
  }, 60_000)
  afterAll(async () => {
    await pair?.stop()
    if (storageDir !== undefined) await rm(storageDir, { recursive: true, force: true })
  })

  async function upload(name: string, width: number, overwrite: boolean) {
    const body = new FormData()
    body.set('file', new Blob([await png(width)]), `${name}.png`)
    body.set('name', name)
    if (overwrite) body.set('overwrite', 'true')
    const response = await uploadDirect(first.url, token, body)
    expect(response.status, await response.clone().text()).toBe(200)
    return (await response.json()) as { fileId: string; orgId: string; version: number }
  }

  it('delivers an overwritten file in its new version from the other process at once', async () => {
    await upload('swap', 10, false)
    expect(await widthOf(await fetch(`${second.url}/v2/demo/original/swap.png`))).toBe(10)
    for (const width of [11, 12, 13, 14, 15]) {
      await upload('swap', width, true)
      expect(await widthOf(await fetch(`${second.url}/v2/demo/original/swap.png`))).toBe(width)
      expect(await widthOf(await fetch(`${second.url}/v2/demo/t.flip()/swap.png?v=${width}`))).toBe(
        width,
      )
    }
  })

  it('stops delivering a deleted file, and delivers a moved one under its new path', async () => {
    const gone = await upload('gone', 9, false)
    const moved = await upload('moved', 8, false)
    const client = createTestClient(first)
    const api = `${ASSETS}/org/${gone.orgId}/files`
    expect((await fetch(`${second.url}/v2/demo/original/gone.png`)).status).toBe(200)
    expect((await fetch(`${second.url}/v2/demo/original/elsewhere.png`)).status).toBe(404)
    expect((await client.call('DELETE', `${api}/${gone.fileId}`, { token })).status).toBe(200)
    expect((await fetch(`${second.url}/v2/demo/original/gone.png`)).status).toBe(404)
    expect((await fetch(`${second.url}/v2/demo/original/moved.png`)).status).toBe(200)
    const answer = await client.call('PATCH', `${api}/${moved.fileId}`, {
      token,
      body: { name: 'elsewhere.png' },
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect((await fetch(`${second.url}/v2/demo/original/moved.png`)).status).toBe(404)
    expect(await widthOf(await fetch(`${second.url}/v2/demo/original/elsewhere.png`))).toBe(8)
  })

  it('uses a preset created, changed or archived through the other process at once', async () => {
    const { orgId } = await upload('preset-source', 40, false)
    const client = createTestClient(first)
    const url = `${second.url}/v2/demo/p:thin/preset-source.png`
    expect((await fetch(url)).status).toBe(400) // unknown, and remembered as unknown
    const made = await client.call('POST', `${ASSETS}/org/${orgId}/presets`, {
      token,
      body: { presetName: 'thin', transformation: 't.resize(w:20)' },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(await widthOf(await fetch(url))).toBe(20)
    await client.call('PATCH', `${ASSETS}/org/${orgId}/presets/thin`, {
      token,
      body: { transformation: 't.resize(w:30)' },
    })
    expect(await widthOf(await fetch(url))).toBe(30)
    await client.call('PATCH', `${ASSETS}/org/${orgId}/presets/thin`, {
      token,
      body: { archived: true },
    })
    expect((await fetch(url)).status).toBe(400)
  })

  it('follows settings and signing keys changed through the other process at once', async () => {
    const client = createTestClient(first)
    const owner = await client.signup()
    const orgId = owner.organisation._id
    const keys = `${ORG}/${orgId}/signing-keys`
    const newKey = async () => {
      const answer = await client.call('POST', keys, { cookie: owner.cookie })
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      return answer.body as { _id: string; accessKey: string; secret: string }
    }
    const ownerToken = (
      (
        await client.call('POST', `${ORG}/${orgId}/tokens`, {
          cookie: owner.cookie,
          body: { name: 'changes test' },
        })
      ).body as { token: string }
    ).token
    const body = new FormData()
    body.set('file', new Blob([await png(6)]), 'dot.png')
    const uploaded = await uploadDirect(first.url, ownerToken, body)
    expect(uploaded.status).toBe(200)
    const plain = `${second.url}/v2/${owner.organisation.cloudName}/t.flip()/dot.png`
    expect((await fetch(plain)).status).toBe(200)

    const old = await newKey()
    const signedWithOld = await signWithKey(plain, old)
    const settings = await client.call('PATCH', `${ORG}/${orgId}/settings`, {
      cookie: owner.cookie,
      body: { requireSignedUrls: true },
    })
    expect(settings.status, JSON.stringify(settings.body)).toBe(200)
    expect((await fetch(plain)).status).toBe(401)
    expect((await fetch(signedWithOld)).status).toBe(200) // the key is now remembered there

    const fresh = await newKey()
    const revoked = await client.call('DELETE', `${keys}/${old._id}`, { cookie: owner.cookie })
    expect(revoked.status).toBe(204)
    expect((await fetch(signedWithOld)).status).toBe(401)
    const signedWithFresh = await signWithKey(plain, fresh)
    expect((await fetch(signedWithFresh)).status).toBe(200)
  })

  it('listens again after its connection is cut, and forgets what it may have missed', async () => {
    await upload('cut', 10, false)
    expect(await widthOf(await fetch(`${second.url}/v2/demo/original/cut.png`))).toBe(10)
    const admin = new pg.Client({ connectionString: pair.databaseUrl })
    await admin.connect()
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query ilike 'listen %'`,
      )
    } finally {
      await admin.end()
    }
    await expect
      .poll(() => !second.services.changes.listening() || !first.services.changes.listening(), {
        timeout: 5000,
      })
      .toBe(true)
    await expect
      .poll(() => second.services.changes.listening() && first.services.changes.listening(), {
        timeout: 10_000,
      })
      .toBe(true)
    await upload('cut', 12, true)
    expect(await widthOf(await fetch(`${second.url}/v2/demo/original/cut.png`))).toBe(12)
  })
})
