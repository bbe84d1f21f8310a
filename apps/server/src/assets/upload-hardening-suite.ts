// Test support for the upload hardening suites (upload-hardening-*.test.ts, issue 9): a server
// with a 64 KiB upload limit and a token of the demo organisation, a remote image host for the
// download proxy, raw multipart bodies sent as they are, and what the server left on disk.
import { readdir, readlink } from 'node:fs/promises'
import { type Agent, request } from 'node:http'
import sharp from 'sharp'
import { beforeAll } from 'vitest'
import { useLoopbackHost } from '../test-loopback.ts'
import { demoOrganisation, filesUnder, type TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { ASSETS } from './paths.ts'

export const BOUNDARY = 'XYZfuzz0boundary'

// How long to wait for the server to finish what a test started (a busy machine is slow).
export const SETTLE = { timeout: 20_000, interval: 50 }

export const temporaries = async (root: string) =>
  (await filesUnder(root)).filter((p) => p.endsWith('.tmp'))

/** Files this process holds open below `dir` (the server runs in this process). */
export async function openFilesUnder(dir: string): Promise<string[]> {
  const open: string[] = []
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '')
    if (target.startsWith(dir)) open.push(target)
  }
  return open
}

/** A deterministic generator (mulberry32), so every run sends the same bodies. */
export function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (below: number) => Math.floor(next() * below) }
}

export interface Answer {
  status: number
  body: string
}

/** Sends `body` as it is (no re-encoding) and resolves with the answer; rejects on a dropped one. */
export function send(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  agent?: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-length': String(body.length), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        )
        response.on('error', reject)
      },
    )
    call.on('error', reject)
    // A request the server never answers is a failure of its own, not a test time-out.
    call.setTimeout(30_000, () => call.destroy(new Error('no answer within 30 s')))
    call.end(body)
  })
}

/**
 * Starts the remote image host and a server (64 KiB uploads, the host allowed) before the
 * suite's tests, with a token of the demo organisation and a 2 px PNG; stops them after.
 */
export function useUploadHardeningSuite(kind: TestDatabaseKind) {
  let token: string
  let storageRoot: string
  let tiny: Buffer
  const direct = () => `${suite.server.url}${ASSETS}/upload/direct`
  const auth = () => ({ authorization: `Bearer ${token}` })
  const formHeaders = () => ({
    ...auth(),
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
  })

  const demo = () => demoOrganisation(suite.server)

  /** Stored originals on disk and the storage keys of the demo organisation's files. */
  async function storedState() {
    const organisation = await demo()
    const files = await suite.server.services.context.repo.listFiles(organisation.id, {
      limit: 100_000,
    })
    const onDisk = (await filesUnder(storageRoot)).filter((p) =>
      p.startsWith(`orgs/${organisation.id}/originals/`),
    )
    return { keys: files.map((file) => file.storageKey).sort(), onDisk: onDisk.sort() }
  }

  beforeAll(async () => {
    tiny = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#08f' } })
      .png()
      .toBuffer()
  }, 120_000)
  const source = useLoopbackHost((req, res) => {
    res.writeHead(req.url === '/image.png' ? 200 : 404, { 'content-type': 'image/png' })
    res.end(req.url === '/image.png' ? tiny : '')
  })
  const suite = useTestServer(kind, {
    UPLOAD_MAX_BYTES: String(64 * 1024),
    REMOTE_ALLOW_HOSTS: '127.0.0.1',
  })
  beforeAll(async () => {
    token = await suite.server.createToken()
    storageRoot =
      suite.server.config.storage.driver === 'local' ? suite.server.config.storage.root : ''
  })

  return {
    /** The remote image host on loopback, serving `/image.png`. */
    source,
    get server() {
      return suite.server
    },
    get token() {
      return token
    },
    get storageRoot() {
      return storageRoot
    },
    get tiny() {
      return tiny
    },
    direct,
    auth,
    formHeaders,
    demoOrganisation: demo,
    storedState,
  }
}
