// The activity log through the real server (issue 24, item 5): uploads, moves, deletes,
// presets, settings, tokens, signing keys, members and domains are recorded with who did them;
// the log reads newest first, filtered by kind or family, member, text and days; owners read it,
// another organisation cannot; old entries go with the retention.
import { beforeAll, describe, expect, it } from 'vitest'
import { expectError, PNG_1PX, uploadDirect } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { createActivityLog } from './activity.ts'

const ORG = '/service/panel/organization/v1.0'
const ASSETS = '/service/panel/assets/v1.0'

interface Entry {
  kind: string
  actor: string
  actorUserId: string | null
  target: string
  details: Record<string, unknown>
  createdAt: string
}
interface Page {
  items: Entry[]
  page: { itemTotal: number }
  kinds: string[]
}

describe.each<TestDatabaseKind>(testDatabases('server'))('the activity log on %s', (kind) => {
  const suite = useTestServer(kind, {}, { owner: { token: true } })
  let memberId: string
  let memberCookie: string

  beforeAll(async () => {
    const { owner, token, client } = suite
    const org = owner.organisation._id
    const as = { cookie: owner.cookie }
    // An upload with an API token (multipart), then a move and a delete with the session.
    const form = new FormData()
    form.set('file', new Blob([PNG_1PX]), 'dot.png')
    form.set('path', 'shoes')
    const uploaded = await uploadDirect(suite.server.url, token, form)
    expect(uploaded.status).toBe(200)
    const { fileId } = (await uploaded.json()) as { fileId: string }
    const moved = await client.call('PATCH', `${ASSETS}/org/${org}/files/${fileId}`, {
      ...as,
      body: { name: 'red.png' },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect((await client.call('DELETE', `${ASSETS}/org/${org}/files/${fileId}`, as)).status).toBe(
      200,
    )
    const preset = await client.call('POST', `${ASSETS}/org/${org}/presets`, {
      ...as,
      body: { presetName: 'thumb', transformation: 't.resize(w:100)' },
    })
    expect(preset.status, JSON.stringify(preset.body)).toBe(201)
    await client.call('PATCH', `${ORG}/${org}/settings`, { ...as, body: { allowRawFiles: true } })
    const key = await client.call('POST', `${ORG}/${org}/signing-keys`, as)
    await client.call(
      'DELETE',
      `${ORG}/${org}/signing-keys/${(key.body as { _id: string })._id}`,
      as,
    )
    const { member } = await client.join(owner)
    memberId = member.user._id
    memberCookie = member.cookie
  })

  const list = (query = '', cookie = suite.owner.cookie, org = suite.owner.organisation._id) =>
    suite.client.call('GET', `${ORG}/${org}/activity${query}`, { cookie })

  it('records what was done, by whom, newest first', async () => {
    const answer = await list()
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const { items, kinds } = answer.body as Page
    expect(kinds).toContain('file.upload')
    expect(items.map((entry) => entry.kind)).toEqual([
      'member.join',
      'member.invite',
      'signing-key.revoke',
      'signing-key.create',
      'settings.update',
      'preset.create',
      'file.delete',
      'file.move',
      'file.upload',
      'token.create',
    ])
    const byKind = new Map(items.map((entry) => [entry.kind, entry]))
    expect(byKind.get('file.upload')).toMatchObject({
      actor: 'API token',
      actorUserId: null,
      target: 'shoes/dot.png',
    })
    expect(byKind.get('file.move')).toMatchObject({
      actor: suite.owner.email,
      target: 'shoes/red.png',
      details: { from: 'shoes/dot.png' },
    })
    expect(byKind.get('preset.create')?.target).toBe('thumb')
    expect(byKind.get('settings.update')?.details).toEqual({ allowRawFiles: true })
    expect(byKind.get('member.join')?.actorUserId).toBe(memberId)
  })

  it('filters by family, kind, member, text and days', async () => {
    const files = (await list('?kind=file')).body as Page
    expect(files.items.map((entry) => entry.kind)).toEqual([
      'file.delete',
      'file.move',
      'file.upload',
    ])
    expect(files.page.itemTotal).toBe(3)
    const moves = (await list('?kind=file.move')).body as Page
    expect(moves.items).toHaveLength(1)
    const theirs = (await list(`?member=${memberId}`)).body as Page
    expect(theirs.items.map((entry) => entry.kind)).toEqual(['member.join'])
    const found = (await list('?search=RED.png')).body as Page
    expect(found.items.map((entry) => entry.kind)).toEqual(['file.delete', 'file.move'])
    const today = new Date().toISOString().slice(0, 10)
    expect(((await list(`?from=${today}&to=${today}`)).body as Page).items.length).toBe(10)
    expect(((await list('?to=2020-01-01')).body as Page).items).toEqual([])
    const paged = (await list('?pageSize=4&pageNo=3')).body as Page
    expect(paged.items.map((entry) => entry.kind)).toEqual(['file.upload', 'token.create'])
  })

  it('refuses bad filters with a 400', async () => {
    for (const query of [
      '?kind=nothing',
      '?member=someone',
      '?from=2026-13-01',
      '?from=2026-03-02&to=2026-03-01',
      '?search=',
      '?pageSize=0',
    ]) {
      expectError(await list(query), 400, 'invalid_query')
    }
  })

  it('is for owners of the organisation only', async () => {
    expect((await list('', memberCookie)).status).toBe(403)
    const other = await suite.client.signup()
    expect((await list('', other.cookie)).status).toBe(404)
    const own = (await list('', other.cookie, other.organisation._id)).body as Page
    expect(own.items).toEqual([])
  })

  it('forgets entries older than the retention', async () => {
    const { repo } = suite.server.services.context
    const old = await repo.recordActivity({
      organisationId: suite.owner.organisation._id,
      actorUserId: null,
      actor: 'system',
      kind: 'file.upload',
      target: 'old.png',
      details: {},
    })
    await suite.server.services.context.database.db.execute(
      `update activity_log set created_at = now() - interval '400 days' where id = '${old.id}'` as never,
    )
    expect(await createActivityLog(suite.server.services.context).prune()).toBe(1)
    expect(((await list('?search=old.png')).body as Page).items).toEqual([])
  })
})
