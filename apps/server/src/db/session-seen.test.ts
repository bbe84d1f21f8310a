// A signed-in request reads its session with one query; `last_seen_at` is written at most once
// per SESSION_SEEN_RESOLUTION_MS (issue 14: the write on every call was the largest database
// cost of a signed-in page view). Both engines.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { SESSION_SEEN_RESOLUTION_MS } from './identity-queries.ts'
import { useTestRepository } from './repository-suite.ts'
import { sessions } from './schema.ts'

const ENGINES = ['pglite', 'postgres'] as const

describe.each(ENGINES)('session reads (%s)', (engine) => {
  const suite = useTestRepository(engine)

  const seenAt = async (id: string) => {
    const [row] = await suite.database.db.select().from(sessions).where(eq(sessions.id, id))
    return row?.lastSeenAt.getTime()
  }

  it('finds a live session and its user, and writes last_seen_at only when it is old', async () => {
    const tag = randomBytes(4).toString('hex')
    const { user } = await suite.repo.createUserWithOrganisation(
      { email: `seen-${tag}@example.com`, passwordHash: null, firstName: 'Seen', lastName: 'At' },
      { cloudName: `seen${tag}`, name: 'Seen' },
    )
    const id = randomBytes(32).toString('hex')
    await suite.repo.createSession(id, user.id, new Date(Date.now() + 3_600_000))
    const old = new Date(Date.now() - SESSION_SEEN_RESOLUTION_MS - 5_000)
    await suite.database.db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.id, id))

    const first = await suite.repo.findLiveSession(id)
    expect(first?.user.email).toBe(`seen-${tag}@example.com`)
    const written = await seenAt(id)
    expect(written).toBeGreaterThan(old.getTime())
    expect(first?.session.lastSeenAt.getTime()).toBe(written)

    const second = await suite.repo.findLiveSession(id)
    expect(second?.user.id).toBe(user.id)
    expect(await seenAt(id)).toBe(written)
  })

  it('finds no session that has expired or does not exist', async () => {
    const tag = randomBytes(4).toString('hex')
    const { user } = await suite.repo.createUserWithOrganisation(
      { email: `gone-${tag}@example.com`, passwordHash: null, firstName: 'Gone', lastName: 'By' },
      { cloudName: `gone${tag}`, name: 'Gone' },
    )
    const id = randomBytes(32).toString('hex')
    await suite.repo.createSession(id, user.id, new Date(Date.now() - 1_000))
    expect(await suite.repo.findLiveSession(id)).toBeUndefined()
    expect(await suite.repo.findLiveSession(randomBytes(32).toString('hex'))).toBeUndefined()
  })
})
