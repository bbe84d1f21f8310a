// Account tokens, the development outbox and deleting an account, on both engines (decision
// 019): a token is used once even by racing requests, never after it expires, and a new one of a
// kind ends the older; the outbox keeps only the newest mails; an account is deleted with the
// organisations only it belonged to, and refused while it is the last owner of a shared one.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestRepository } from './repository-suite.ts'

const ENGINES = ['pglite', 'postgres'] as const
const hash = () => randomBytes(32).toString('hex')

describe.each(ENGINES)('account tokens and the outbox (%s)', (engine) => {
  const suite = useTestRepository(engine)

  const newUser = async () => {
    const tag = randomBytes(4).toString('hex')
    return suite.repo.createUserWithOrganisation(
      { email: `t-${tag}@example.com`, passwordHash: null, firstName: 'T', lastName: 'K' },
      { cloudName: `t${tag}`, name: `Org ${tag}` },
    )
  }

  it('uses a token once, even when two requests race for it', async () => {
    const { user } = await newUser()
    const tokenHash = hash()
    const expiresAt = new Date(Date.now() + 60_000)
    await suite.repo.createAccountToken({
      userId: user.id,
      kind: 'password_reset',
      tokenHash,
      email: null,
      expiresAt,
    })
    // Another kind's hash does not match.
    expect(await suite.repo.useAccountToken(tokenHash, 'verify_email')).toBeUndefined()
    const both = await Promise.all([
      suite.repo.useAccountToken(tokenHash, 'password_reset'),
      suite.repo.useAccountToken(tokenHash, 'password_reset'),
    ])
    expect(both.filter((used) => used !== undefined)).toHaveLength(1)
    expect(both.find((used) => used !== undefined)?.user.id).toBe(user.id)
    expect(await suite.repo.findOpenAccountToken(tokenHash, 'password_reset')).toBeUndefined()
  })

  it('refuses an expired token and ends older tokens of the same kind', async () => {
    const { user } = await newUser()
    const expired = hash()
    await suite.repo.createAccountToken({
      userId: user.id,
      kind: 'verify_email',
      tokenHash: expired,
      email: user.email,
      expiresAt: new Date(Date.now() - 1_000),
    })
    expect(await suite.repo.useAccountToken(expired, 'verify_email')).toBeUndefined()
    const older = hash()
    const newer = hash()
    const expiresAt = new Date(Date.now() + 60_000)
    await suite.repo.createAccountToken({
      userId: user.id,
      kind: 'verify_email',
      tokenHash: older,
      email: user.email,
      expiresAt,
    })
    await suite.repo.createAccountToken({
      userId: user.id,
      kind: 'verify_email',
      tokenHash: newer,
      email: user.email,
      expiresAt,
    })
    expect(await suite.repo.useAccountToken(older, 'verify_email')).toBeUndefined()
    expect((await suite.repo.useAccountToken(newer, 'verify_email'))?.token.email).toBe(user.email)
    expect(await suite.repo.deleteStaleAccountTokens()).toBeGreaterThanOrEqual(3)
  })

  it('keeps only the newest outbox mails', async () => {
    const to = `outbox-${randomBytes(4).toString('hex')}@example.com`
    for (let i = 1; i <= 5; i++) {
      await suite.repo.addOutboxMail({ to, subject: `mail ${i}`, text: `body ${i}`, html: null }, 3)
    }
    const kept = await suite.repo.listOutboxMail(10)
    expect(kept.map((mail) => mail.subject)).toEqual(['mail 5', 'mail 4', 'mail 3'])
  })

  it('never shows more than the kept mails to a reader while one is added', async () => {
    const to = `outbox-${randomBytes(4).toString('hex')}@example.com`
    const mail = (i: number) => ({ to, subject: `read ${i}`, text: `body ${i}`, html: null })
    for (let i = 1; i <= 3; i++) await suite.repo.addOutboxMail(mail(i), 3)
    // A read beside each add: between an add's insert and its trim it saw four.
    for (let i = 4; i <= 13; i++) {
      const [, listed] = await Promise.all([
        suite.repo.addOutboxMail(mail(i), 3),
        suite.repo.listOutboxMail(10),
      ])
      expect(listed.length).toBeLessThanOrEqual(3)
    }
    expect((await suite.repo.listOutboxMail(10)).map((kept) => kept.subject)).toEqual([
      'read 13',
      'read 12',
      'read 11',
    ])
  })

  it('deletes an account with its own organisation, not while it is the last owner of a shared one', async () => {
    const { user: owner, organisation: shared } = await newUser()
    const { user: other } = await newUser()
    await suite.repo.addMembership(other.id, shared.id, 'member')
    const refused = await suite.repo.deleteAccount(owner.id)
    expect(refused).toEqual({ ok: false, organisations: [{ id: shared.id, name: shared.name }] })
    expect(await suite.repo.findUserById(owner.id)).toBeDefined()
    // The member goes; their own organisation with them, the shared one stays.
    const [own] = (await suite.repo.listUserOrganisations(other.id)).filter(
      (org) => org.organisation.id !== shared.id,
    )
    const gone = await suite.repo.deleteAccount(other.id)
    expect(gone).toEqual({ ok: true, deletedOrganisations: [own?.organisation.id] })
    expect(await suite.repo.findOrganisationById(shared.id)).toBeDefined()
    expect(await suite.repo.findOrganisationById(own?.organisation.id ?? '')).toBeUndefined()
    // Alone now, the owner may go, and the organisation with them.
    expect(await suite.repo.deleteAccount(owner.id)).toEqual({
      ok: true,
      deletedOrganisations: [shared.id],
    })
    expect(await suite.repo.findOrganisationById(shared.id)).toBeUndefined()
  })
})
