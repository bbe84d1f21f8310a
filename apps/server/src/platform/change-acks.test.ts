// The change feed's acknowledgements, on PostgreSQL: a change answers only once every other
// listening process has applied it, a process that says goodbye is not waited for, and one that
// never answers (killed) holds a change no longer than ECHO_TIMEOUT_MS.
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createThrowawayDatabase } from '../db/test-database.ts'
import { type Change, type ChangeFeed, createChangeFeed } from './changes.ts'

const FILE: Change = { kind: 'file', organisationId: 'org-1', path: 'a.png' }

describe('change acknowledgements between processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>>
  const feeds: ChangeFeed[] = []
  const warnings: string[] = []
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) })

  beforeAll(async () => {
    database = await createThrowawayDatabase()
  }, 60_000)
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.close()))
    await database?.drop()
  })

  async function feed(apply: (change: Change) => void | Promise<void>) {
    const created = await createChangeFeed({
      url: database.url,
      logger,
      apply,
      applyAll: () => undefined,
      presenceMs: 200,
    })
    feeds.push(created)
    return created
  }

  it('answers a change only when the other process has applied it', async () => {
    const seen: Change[] = []
    const writer = await feed(() => undefined)
    // The reader takes its time to apply: without acknowledgements the writer would answer first.
    const reader = await feed(async (change) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      seen.push(change)
    })
    await expect.poll(() => writer.peers()).toBe(1)
    await expect.poll(() => reader.peers()).toBe(1)
    for (let round = 0; round < 3; round++) {
      await writer.publish({ ...FILE, path: `a${round}.png` })
      expect(seen.map((change) => (change as { path: string }).path)).toContain(`a${round}.png`)
    }
    await reader.close()
    await writer.close()
  })

  it('stops waiting for a process that said goodbye', async () => {
    const writer = await feed(() => undefined)
    const leaving = await feed(() => undefined)
    await expect.poll(() => writer.peers()).toBe(1)
    await leaving.close()
    await expect.poll(() => writer.peers()).toBe(0)
    await writer.publish(FILE)
    await writer.close()
  })

  it('answers after ECHO_TIMEOUT_MS when a process never acknowledges, and says which', async () => {
    const writer = await feed(() => undefined)
    // Applies nothing, ever: a process stuck or killed between hearing and acknowledging.
    const stuck = await feed(() => new Promise<void>(() => undefined))
    await expect.poll(() => writer.peers()).toBe(1)
    warnings.length = 0
    await writer.publish(FILE)
    expect(warnings.join('\n')).toContain('a change was not acknowledged in time')
    await stuck.close()
    await writer.close()
  })
})
