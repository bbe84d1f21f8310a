// Content files edited in place are read again without a restart (`Services.reloadContent`, the
// server's SIGHUP): the content APIs answer the new content, plans are seeded again, and
// `contentChanged` fires so the page cache forgets every page. A broken file changes nothing.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { CONTENT_DIR, CONTENT_FILES, ContentError } from './content.ts'
import { APPS, CMS } from './paths.ts'

async function editJson(path: string, edit: (data: Record<string, unknown>[]) => void) {
  const data = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>[]
  edit(data)
  await writeFile(path, JSON.stringify(data))
}

describe.each<TestDatabaseKind>(testDatabases('server'))('content reload (%s)', (kind) => {
  let dir: string
  let changes = 0

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-reload-'))
    await cp(CONTENT_DIR, dir, { recursive: true })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const suite = useTestServer(kind, {}, () => ({ contentDir: dir, runJobs: false }))
  beforeAll(async () => {
    suite.server.services.context.contentChanged.subscribe(() => {
      changes++
    })
  })

  const searchTag = async () => {
    const response = await fetch(`${suite.server.url}${CMS}/websites`)
    const body = (await response.json()) as { data: { attributes: { searchTag: string } }[] }
    return body.data[0]?.attributes.searchTag
  }

  it('answers the edited content after a reload, and tells the subscribers', async () => {
    expect(await searchTag()).toBe('tessera')
    await editJson(join(dir, CONTENT_FILES.websites), (data) => {
      ;(data[0] as Record<string, unknown>).searchTag = 'edited'
    })
    await editJson(join(dir, CONTENT_FILES.apps), (data) => {
      ;(data[0] as Record<string, unknown>).title = 'Edited Remover'
    })
    expect(await searchTag()).toBe('tessera')
    await suite.server.services.reloadContent()
    expect(changes).toBe(1)
    expect(await searchTag()).toBe('edited')
    const app = await fetch(`${suite.server.url}${APPS}/dynamicApps/background-remover`)
    expect(((await app.json()) as { config: { title: string } }).config.title).toBe(
      'Edited Remover',
    )
  })

  it('keeps the content in use when a file is broken', async () => {
    await writeFile(join(dir, CONTENT_FILES.websites), '[{"id": "not a number"')
    await expect(suite.server.services.reloadContent()).rejects.toBeInstanceOf(ContentError)
    expect(changes).toBe(1)
    expect(await searchTag()).toBe('edited')
  })
})
