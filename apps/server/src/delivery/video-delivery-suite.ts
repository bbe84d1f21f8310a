// Test support for the video suites (video-delivery-*.test.ts): a folder per test file for the
// servers' ffmpeg temp directories (VIDEO_TEMP_DIR), so what is left there is the file's own, and
// a server whose demo organisation takes unsigned URLs and holds a 2 s clip at videos/clip.mp4.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeClip } from '@tessera/media'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

export const ASSETS = '/service/panel/assets/v1.0'

/** The file's temp folder, made before its suites and removed after them: call it at the top. */
export function useVideoTemps() {
  let temps: string | undefined
  beforeAll(async () => {
    temps = await mkdtemp(join(tmpdir(), 'tessera-vtemps-'))
  })
  afterAll(async () => {
    if (temps !== undefined) await rm(temps, { recursive: true, force: true })
  })
  const dir = () => {
    if (temps === undefined) throw new Error('the temp folder has not been made')
    return temps
  }
  return { dir, list: () => readdir(dir()) }
}

export type VideoTemps = ReturnType<typeof useVideoTemps>

/**
 * Starts a server whose ffmpeg temp directories go under `temps` before the suite's tests, with a
 * token of the demo organisation and the clip uploaded; stops it after.
 */
export function useVideoSuite(kind: TestDatabaseKind, temps: () => string) {
  const suite = useTestServer(kind, () => ({
    VIDEO_MAX_SECONDS: '30',
    // The demo's strict transformations are switched off below: rows are read fresh.
    LOOKUP_TTL_MS: '0',
    VIDEO_TEMP_DIR: temps(),
    VIDEO_CONCURRENCY: '2',
    VIDEO_THREADS: '1',
    ANON_AI_RUNS_PER_DAY: '1000',
  }))
  let token: string
  let organisationId: string
  let clip: Buffer

  const upload = async (data: Buffer, fileName: string, fields: Record<string, string> = {}) => {
    const body = new FormData()
    for (const [key, value] of Object.entries(fields)) body.set(key, value)
    body.set('file', new Blob([data]), fileName)
    const response = await fetch(`${suite.server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    })
    return { status: response.status, json: (await response.json()) as Record<string, unknown> }
  }
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${suite.server.url}/v2/demo/${path}`, { headers })

  /** Asks until the job is done (202 meanwhile), as a client does. */
  async function whenDone(path: string, headers: Record<string, string> = {}) {
    const first = await get(path, headers)
    if (first.status !== 202) return first
    expect(first.headers.get('retry-after')).toBe('1')
    for (let attempt = 0; attempt < 300; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const next = await get(path, headers)
      if (next.status !== 202) return next
      await next.arrayBuffer()
    }
    throw new Error(`${path} stayed 202`)
  }
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer())

  /** Stores the clip as `clip.mp4` of another organisation: the same stored bytes, no upload. */
  async function copyClipTo(otherId: string) {
    const { repo } = suite.server.services.context
    const stored = await repo.findFile(organisationId, 'videos/clip.mp4')
    if (stored === undefined) throw new Error('no clip')
    const { storageKey, hash, size, format, contentType, width, height, video } = stored
    await repo.upsertFile(otherId, {
      path: 'clip.mp4',
      name: 'clip.mp4',
      ...{ storageKey, hash, size, format, contentType, width, height, video },
    })
  }

  beforeAll(async () => {
    token = await suite.server.createToken()
    const demo = await suite.server.services.context.repo.findOrganisationByCloudName('demo')
    organisationId = demo?.id as string
    // Most tests here ask unsigned URLs; strict transformations have a test of their own below.
    await suite.server.services.context.repo.updateOrganisationSettings(organisationId, {
      strictTransformations: false,
    })
    clip = await makeClip({ width: 64, height: 48, seconds: 2, fps: 25, audio: true })
    const stored = await upload(clip, 'clip.mp4', { path: 'videos' })
    expect(stored.status).toBe(200)
  }, 120_000)

  return {
    get server() {
      return suite.server
    },
    get token() {
      return token
    },
    get organisationId() {
      return organisationId
    },
    get clip() {
      return clip
    },
    upload,
    get,
    whenDone,
    bytesOf,
    copyClipTo,
  }
}

export type VideoSuite = ReturnType<typeof useVideoSuite>

/** A video test file's main suite, on each database the run uses: `tests` over `useVideoSuite`. */
export function describeVideoDelivery(temps: VideoTemps, tests: (suite: VideoSuite) => void) {
  describe.each<TestDatabaseKind>(testDatabases('server'))('video delivery on %s', (kind) => {
    tests(useVideoSuite(kind, temps.dir))
  })
}
