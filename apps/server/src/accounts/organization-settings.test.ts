// Organisation settings and signing keys through the real server on PGlite and PostgreSQL
// (issue 9): owners change them, members read them, another organisation's session or token
// changes nothing; and end to end, a key signs delivery URLs, require-signed refuses unsigned
// ones, and strict transformations refuse AI operations an unsigned URL writes itself.
import { signUrl } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { expectError, expectOrganisationHidden, PNG_1PX } from '../test-client.ts'
import { storeTestFile } from '../test-server.ts'
import { describeEachDatabase, type SignedUpAccount, useTestServer } from '../test-suite.ts'

const ORG = '/service/panel/organization/v1.0'
const ABSENT = '00000000-0000-4000-8000-000000000000'

interface Settings {
  requireSignedUrls: boolean
  strictTransformations: boolean
  allowRawFiles: boolean
}
interface Key {
  _id: string
  accessKey: string
  createdAt: string
  secret?: string
}

describeEachDatabase('server', 'organisation settings on %s', useTestServer, (suite) => {
  const { call } = suite
  type Account = SignedUpAccount
  const repo = () => suite.server.services.context.repo
  const settingsPath = (account: Account) => `${ORG}/${account.organisation._id}/settings`
  const keysPath = (account: Account) => `${ORG}/${account.organisation._id}/signing-keys`

  async function settingsOf(account: Account): Promise<Settings> {
    const answer = await call('GET', settingsPath(account), { cookie: account.cookie })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return answer.body as Settings
  }

  async function createKey(account: Account): Promise<Key> {
    const answer = await call('POST', keysPath(account), { cookie: account.cookie })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body as Key
  }

  async function patch(account: Account, body: unknown) {
    return call('PATCH', settingsPath(account), { cookie: account.cookie, body })
  }

  /** Stores a 1×1 PNG as `dot.png` of the organisation. */
  async function addDot(account: Account): Promise<void> {
    await storeTestFile(suite.server, account.organisation._id, 'dot.png', PNG_1PX)
  }

  describe('settings', () => {
    it('starts a new organisation strict, without required signatures or raw files', async () => {
      const owner = await suite.client.signup()
      expect(await settingsOf(owner)).toEqual({
        requireSignedUrls: false,
        strictTransformations: true,
        allowRawFiles: false,
        corsOrigins: ['*'],
      })
      const answer = await call('GET', settingsPath(owner), { cookie: owner.cookie })
      expect(answer.response.headers.get('cache-control')).toBe('no-store')
    })

    it('lets an owner change each setting, alone or together, and keeps what is not sent', async () => {
      const owner = await suite.client.signup()
      const off = await patch(owner, { strictTransformations: false })
      expect(off.status, JSON.stringify(off.body)).toBe(200)
      expect(off.body).toEqual({
        requireSignedUrls: false,
        strictTransformations: false,
        allowRawFiles: false,
        corsOrigins: ['*'],
      })
      const both = await patch(owner, { allowRawFiles: true, strictTransformations: true })
      expect(both.body).toMatchObject({ strictTransformations: true, allowRawFiles: true })
      expect((await patch(owner, {})).body).toMatchObject({ allowRawFiles: true })
      const stored = await repo().findOrganisationById(owner.organisation._id)
      expect(stored).toMatchObject({ strictTransformations: true, allowRawFiles: true })
    })

    it('refuses requiring signed URLs before the organisation has a signing key', async () => {
      const owner = await suite.client.signup()
      expectError(await patch(owner, { requireSignedUrls: true }), 409, 'no_signing_key')
      expect((await settingsOf(owner)).requireSignedUrls).toBe(false)
      await createKey(owner)
      expect((await patch(owner, { requireSignedUrls: true })).body).toMatchObject({
        requireSignedUrls: true,
      })
    })

    it('refuses unknown settings and values that are not booleans', async () => {
      const owner = await suite.client.signup()
      for (const body of [
        { requireSignedUrls: 'true' },
        { strictTransformations: 1 },
        { allowRawFiles: null },
        { strict: true },
        [],
        'x',
      ]) {
        expectError(await patch(owner, body), 400, 'invalid_body')
      }
      const raw = await call('PATCH', settingsPath(owner), { cookie: owner.cookie, raw: '{' })
      expect(raw.status).toBe(400)
      expect(await settingsOf(owner)).toMatchObject({ strictTransformations: true })
    })

    it('lets members and API tokens read but only owners change, with a signed request', async () => {
      const owner = await suite.client.signup()
      const member = (await suite.client.join(owner)).member
      const token = (await suite.client.createToken(owner, 'settings tests')).token
      const asMember = await call('GET', settingsPath(owner), { cookie: member.cookie })
      expect(asMember.status).toBe(200)
      expect((await call('GET', settingsPath(owner), { token })).status).toBe(200)
      expectError(
        await call('PATCH', settingsPath(owner), {
          cookie: member.cookie,
          body: { strictTransformations: false },
        }),
        403,
        'forbidden',
      )
      expectError(
        await call('PATCH', settingsPath(owner), {
          token,
          body: { strictTransformations: false },
        }),
        403,
        'forbidden',
      )
      expectError(
        await call('PATCH', settingsPath(owner), {
          cookie: owner.cookie,
          body: { strictTransformations: false },
          sign: false,
        }),
        400,
        'signature_missing',
      )
      expectError(await call('GET', settingsPath(owner), { sign: false }), 401, 'unauthenticated')
      expect((await settingsOf(owner)).strictTransformations).toBe(true)
    })
  })

  describe('signing keys', () => {
    it('shows the secret once, lists keys without it, and revokes them', async () => {
      const owner = await suite.client.signup()
      const created = await createKey(owner)
      expect(created.accessKey).toMatch(/^[0-9a-f]{32}$/)
      expect(created.secret).toMatch(/^[0-9a-f]{64}$/)
      const second = await createKey(owner)
      const listed = await call('GET', keysPath(owner), { cookie: owner.cookie })
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual([
        { _id: created._id, accessKey: created.accessKey, createdAt: created.createdAt },
        { _id: second._id, accessKey: second.accessKey, createdAt: second.createdAt },
      ])
      expect(JSON.stringify(listed.body)).not.toContain(created.secret)

      const revoked = await call('DELETE', `${keysPath(owner)}/${created._id}`, {
        cookie: owner.cookie,
      })
      expect(revoked.status).toBe(204)
      expect(await repo().findSigningKey(created.accessKey)).toBeUndefined()
      expectError(
        await call('DELETE', `${keysPath(owner)}/${created._id}`, { cookie: owner.cookie }),
        404,
        'signing_key_not_found',
      )
      for (const id of [ABSENT, 'not-a-uuid']) {
        expectError(
          await call('DELETE', `${keysPath(owner)}/${id}`, { cookie: owner.cookie }),
          404,
          'signing_key_not_found',
        )
      }
      const after = await call('GET', keysPath(owner), { cookie: owner.cookie })
      expect((after.body as Key[]).map((key) => key._id)).toEqual([second._id])
    })

    it('keeps the last key while signed URLs are required', async () => {
      const owner = await suite.client.signup()
      const key = await createKey(owner)
      await patch(owner, { requireSignedUrls: true })
      expectError(
        await call('DELETE', `${keysPath(owner)}/${key._id}`, { cookie: owner.cookie }),
        409,
        'last_signing_key',
      )
      await patch(owner, { requireSignedUrls: false })
      const revoked = await call('DELETE', `${keysPath(owner)}/${key._id}`, {
        cookie: owner.cookie,
      })
      expect(revoked.status).toBe(204)
    })

    it('lets only owners manage keys: members and API tokens get 403', async () => {
      const owner = await suite.client.signup()
      const member = (await suite.client.join(owner)).member
      const token = (await suite.client.createToken(owner, 'settings tests')).token
      const key = await createKey(owner)
      for (const credentials of [{ cookie: member.cookie }, { token }]) {
        expectError(await call('GET', keysPath(owner), credentials), 403, 'forbidden')
        expectError(await call('POST', keysPath(owner), credentials), 403, 'forbidden')
        expectError(
          await call('DELETE', `${keysPath(owner)}/${key._id}`, credentials),
          403,
          'forbidden',
        )
      }
      expect(await repo().findSigningKey(key.accessKey)).toBeDefined()
      expect(await repo().listSigningKeys(owner.organisation._id)).toHaveLength(1)
    })
  })

  describe('another organisation', () => {
    it('can neither read nor change settings nor keys: every call answers 404', async () => {
      const owner = await suite.client.signup()
      const key = await createKey(owner)
      const stranger = await suite.client.signup()
      const strangerToken = (await suite.client.createToken(stranger)).token
      const calls: Array<[string, string, unknown]> = [
        ['GET', settingsPath(owner), undefined],
        ['PATCH', settingsPath(owner), { strictTransformations: false, allowRawFiles: true }],
        ['GET', keysPath(owner), undefined],
        ['POST', keysPath(owner), undefined],
        ['DELETE', `${keysPath(owner)}/${key._id}`, undefined],
      ]
      await expectOrganisationHidden(call, calls, [
        { cookie: stranger.cookie },
        { token: strangerToken },
      ])
      // The stranger's own key cannot be revoked through their own organisation's path either.
      expectError(
        await call('DELETE', `${keysPath(stranger)}/${key._id}`, { cookie: stranger.cookie }),
        404,
        'signing_key_not_found',
      )
      expect(await settingsOf(owner)).toEqual({
        requireSignedUrls: false,
        strictTransformations: true,
        allowRawFiles: false,
        corsOrigins: ['*'],
      })
      expect(await repo().listSigningKeys(owner.organisation._id)).toHaveLength(1)
      expect(await repo().findSigningKey(key.accessKey)).toBeDefined()
    })
  })

  describe('end to end', () => {
    it('signs URLs with a new key, requires them, and keeps AI operations to signed URLs and presets', async () => {
      const owner = await suite.client.signup()
      await addDot(owner)
      const base = `${suite.server.url}/v2/${owner.organisation.cloudName}`
      const key = await createKey(owner)
      const sign = (url: string) =>
        signUrl(url, { accessKey: key.accessKey, token: key.secret as string, expirySeconds: 60 })
      const credits = async () =>
        (await repo().findOrganisationById(owner.organisation._id))?.credits

      // Require signed URLs: a URL signed with the key is delivered, an unsigned one refused.
      await patch(owner, { requireSignedUrls: true })
      const plain = `${base}/t.flip()/dot.png`
      expect((await fetch(await sign(plain))).status).toBe(200)
      const unsigned = await fetch(plain)
      expect(unsigned.status).toBe(401)
      expect(await unsigned.json()).toMatchObject({ code: 'invalid_signature' })

      // Strict (the default) without required signatures: an unsigned AI operation is refused
      // and costs nothing; the same operation through a preset, or signed, runs.
      await patch(owner, { requireSignedUrls: false })
      expect((await fetch(plain)).status).toBe(200)
      const before = await credits()
      const ai = `${base}/ic.crop(w:1,h:1,p:10)/dot.png`
      const refused = await fetch(ai)
      expect(refused.status).toBe(401)
      expect(await refused.json()).toMatchObject({ code: 'strict_transformations' })
      // A chain that writes the AI operation beside a free one is refused the same way.
      expect((await fetch(`${base}/t.flip()~ic.crop(w:1,h:1,p:10)/dot.png`)).status).toBe(401)
      // A signature that does not verify does not count.
      const forged = (await sign(ai)).replace(/pbs=[0-9a-f]{4}/, 'pbs=0000')
      expect((await fetch(forged)).status).toBe(401)
      expect(await credits()).toBe(before)
      const ledger = await repo().listCreditLedger(owner.organisation._id, {
        limit: 10,
        offset: 0,
      })
      expect(ledger.items.some((entry) => entry.reason === 'ai_transformation')).toBe(false)

      await repo().upsertPreset(owner.organisation._id, {
        name: 'crop-square',
        transformation: 'ic.crop(w:1,h:1,p:20)',
      })
      const viaPreset = await fetch(`${base}/p:crop-square/dot.png`)
      expect(viaPreset.status).toBe(202)
      await viaPreset.arrayBuffer()
      expect(await credits()).toBe((before as number) - 1)

      const signed = await fetch(await sign(ai))
      expect(signed.status).toBe(202)
      await signed.arrayBuffer()
      expect(await credits()).toBe((before as number) - 2)

      // Turned off, the organisation's unsigned URLs may run AI operations again.
      await patch(owner, { strictTransformations: false })
      const open = await fetch(`${base}/ic.crop(w:1,h:1,p:30)/dot.png`)
      expect(open.status).toBe(202)
      await open.arrayBuffer()
      expect(await credits()).toBe((before as number) - 3)
    })

    it('refuses an AI operation with a bad parameter with 400 before anything is charged', async () => {
      const owner = await suite.client.signup()
      await addDot(owner)
      await patch(owner, { strictTransformations: false })
      const base = `${suite.server.url}/v2/${owner.organisation.cloudName}`
      for (const pattern of ['ic.crop(w:-1)', 'ic.crop(p:101)', 'ic.crop(ar:wide)']) {
        const answer = await fetch(`${base}/${pattern}/dot.png`)
        expect(answer.status, pattern).toBe(400)
        expect(await answer.json()).toMatchObject({ code: 'invalid_transformation' })
      }
      expect((await repo().findOrganisationById(owner.organisation._id))?.credits).toBe(50)
    })
  })
})
