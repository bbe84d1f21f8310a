// The delivery fast lane (decision 010) through the real server: what it answers is what the
// normal path answers (status, headers and bytes, 304s, HEAD, per Accept and per host), and
// nothing it remembers outlives a change of the file, the signing keys or the organisation.
// Across two processes and its bounds: fast-lane-bounds.test.ts.
import { beforeAll, describe, expect, it } from 'vitest'
import {
  createSignedUrlOrganisation,
  signWithKey,
  type TestDatabaseKind,
  testDatabases,
} from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { type Answer, ASSETS, comparable, send, upload, widthOf } from './fast-lane-suite.ts'

describe.each<TestDatabaseKind>(testDatabases('server'))('the delivery fast lane on %s', (kind) => {
  let token: string
  const lane = () => suite.server.services.delivery.fastLane

  /**
   * Asks for `path` until the normal path has answered it from the cache (which remembers it);
   * returns that answer.
   */
  async function warm(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    expect((await send(suite.server.url, path, { headers })).status).toBe(200)
    await suite.server.services.delivery.settle()
    // Whatever the lane holds goes, so this answer is surely the normal path's.
    lane().forget(undefined)
    const before = lane().answered
    const normal = await send(suite.server.url, path, { headers })
    expect(lane().answered).toBe(before)
    return normal
  }

  /** Sends and says whether the fast lane answered. */
  async function viaLane(path: string, options: Parameters<typeof send>[2] = {}) {
    const before = lane().answered
    const answer = await send(suite.server.url, path, options)
    return { answer, fast: lane().answered === before + 1 }
  }

  const suite = useTestServer(kind, { DELIVERY_HOSTS: 'cdn.test' })

  beforeAll(async () => {
    token = await suite.server.createToken()
  })

  it('answers a remembered hit with the same status, headers and bytes as the normal path', async () => {
    const path = '/v2/demo/t.resize(w:40)~t.flip()/samples/horse.png'
    const normal = await warm(path)
    const { answer, fast } = await viaLane(path)
    expect(fast).toBe(true)
    expect(comparable(answer)).toEqual(comparable(normal))
    const given = await viaLane(path, { headers: { 'x-request-id': 'trace-42' } })
    expect(given.fast).toBe(true)
    expect(given.answer.headers['x-request-id']).toBe('trace-42')
  })

  it('answers 304 to a matching If-None-Match as the normal path does, 200 to another', async () => {
    const path = '/v2/demo/t.resize(w:41)/samples/horse.png'
    const etag = (await warm(path)).headers.etag as string
    lane().forget(undefined)
    const normal = await viaLane(path, { headers: { 'if-none-match': etag } })
    expect([normal.fast, normal.answer.status]).toEqual([false, 304])
    await send(suite.server.url, path)
    const matching = await viaLane(path, { headers: { 'if-none-match': `W/${etag}` } })
    expect(matching.fast).toBe(true)
    expect(comparable(matching.answer)).toEqual(comparable(normal.answer))
    const other = await viaLane(path, { headers: { 'if-none-match': '"something-else"' } })
    expect(other.fast).toBe(true)
    expect(other.answer.status).toBe(200)
    expect(other.answer.headers.etag).toBe(etag)
  })

  it('answers HEAD with the headers of the normal path and no body', async () => {
    const path = '/v2/demo/t.resize(w:42)/samples/horse.png'
    await warm(path)
    lane().forget(undefined)
    const normal = await send(suite.server.url, path, { method: 'HEAD' })
    await send(suite.server.url, path)
    const { answer, fast } = await viaLane(path, { method: 'HEAD' })
    expect(fast).toBe(true)
    expect(answer.body.length).toBe(0)
    expect(comparable(answer)).toEqual(comparable(normal))
  })

  it('leaves ranges and other methods to the normal path', async () => {
    const path = '/v2/demo/t.resize(w:43)/samples/horse.png'
    const normal = await warm(path)
    const ranged = await viaLane(path, { headers: { range: 'bytes=0-9' } })
    expect(ranged.fast).toBe(false)
    expect(ranged.answer.body.equals(normal.body)).toBe(true)
    const posted = await viaLane(path, { method: 'POST' })
    expect(posted.fast).toBe(false)
    expect(posted.answer.status).toBe(404)
  })

  it('keeps one answer per Accept for f_auto, and the right one for each', async () => {
    const path = '/v2/demo/t.resize(w:44)/samples/horse.png?f_auto=true'
    const webp = { accept: 'image/webp,*/*' }
    const avif = { accept: 'image/avif,image/webp,*/*' }
    await warm(path, webp)
    expect((await viaLane(path, { headers: avif })).fast).toBe(false)
    await warm(path, avif)
    await send(suite.server.url, path, { headers: webp })
    const asWebp = await viaLane(path, { headers: webp })
    const asAvif = await viaLane(path, { headers: avif })
    expect([asWebp.fast, asAvif.fast]).toEqual([true, true])
    expect(asWebp.answer.headers['content-type']).toBe('image/webp')
    expect(asAvif.answer.headers['content-type']).toBe('image/avif')
    expect(asAvif.answer.headers.vary).toBe('Accept')
    const none = await viaLane(path)
    expect(none.fast).toBe(false)
    expect(none.answer.headers['content-type']).toBe('image/png')
  })

  it('answers per host: a delivery host and the server’s own host are apart', async () => {
    const path = '/demo/t.resize(w:45)/samples/horse.png'
    const cdn = { host: 'cdn.test' }
    const normal = await warm(path, cdn)
    const { answer, fast } = await viaLane(path, { headers: cdn })
    expect(fast).toBe(true)
    expect(comparable(answer)).toEqual(comparable(normal))
    // On the server's own host the same target is no delivery URL (the web app's).
    const own = await viaLane(path)
    expect(own.fast).toBe(false)
    expect(own.answer.headers['content-type']).not.toBe('image/png')
  })

  it('never answers the old bytes of a file overwritten or deleted meanwhile', async () => {
    const { orgId, fileId } = await upload(suite.server, token, `swap-${kind}`, 20)
    const path = `/v2/demo/t.flip()/swap-${kind}.png`
    const first = await warm(path)
    expect((await viaLane(path)).fast).toBe(true)
    for (const width of [21, 22]) {
      await upload(suite.server, token, `swap-${kind}`, width)
      const after = await viaLane(path)
      expect(after.fast).toBe(false)
      expect(after.answer.headers.etag).not.toBe(first.headers.etag)
      expect(await widthOf(after.answer)).toBe(width)
      await suite.server.services.delivery.settle()
      await send(suite.server.url, path)
      const again = await viaLane(path)
      expect(again.fast).toBe(true)
      expect(again.answer.body.equals(after.answer.body)).toBe(true)
    }
    const removed = await fetch(`${suite.server.url}${ASSETS}/org/${orgId}/files/${fileId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(removed.status).toBe(200)
    const gone = await viaLane(path)
    expect(gone.fast).toBe(false)
    expect(gone.answer.status).toBe(404)
  })

  it('refuses a bad or revoked signature; a valid one is answered until its key goes', async () => {
    const { repo, lookups } = suite.server.services.context
    const { organisation: secure, key } = await createSignedUrlOrganisation(
      suite.server,
      `fast-secure-${kind}`,
    )
    const url = `${suite.server.url}/v2/fast-secure-${kind}/t.resize(w:16)/horse.png`
    const signed = new URL(await signWithKey(url, key))
    const path = `${signed.pathname}${signed.search}`
    await warm(path)
    expect((await viaLane(path)).fast).toBe(true)
    const unsigned = await viaLane(new URL(url).pathname)
    expect([unsigned.fast, unsigned.answer.status]).toEqual([false, 401])
    const signature = signed.searchParams.get('pbs') as string
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`
    const forged = path.replace(signature, flipped)
    const bad = await viaLane(forged)
    expect([bad.fast, bad.answer.status]).toEqual([false, 401])
    await repo.revokeSigningKeyById(secure.id, key.id)
    await lookups.forgetSigningKeys()
    const revoked = await viaLane(path)
    expect([revoked.fast, revoked.answer.status]).toEqual([false, 401])
  })

  it('forgets an organisation’s answers when its settings change', async () => {
    const { repo, lookups } = suite.server.services.context
    const path = '/v2/demo/t.resize(w:46)/samples/horse.png'
    await warm(path)
    expect((await viaLane(path)).fast).toBe(true)
    const demo = await repo.findOrganisationByCloudName('demo')
    await lookups.forgetOrganisation(demo as NonNullable<typeof demo>)
    expect((await viaLane(path)).fast).toBe(false)
  })
})
