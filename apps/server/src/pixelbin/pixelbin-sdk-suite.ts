// Test support for the suites that drive Pixelbin's own admin SDK (`@pixelbin/admin` 4.2.0,
// pinned), unchanged, against a running server (pixelbin-sdk-*.test.ts): PixelbinConfig's domain
// is the test server and apiSecret a token made here, for Acme and for a rival organisation; a
// small HTTP server stands in for a remote image host.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PixelbinClient, PixelbinConfig } from '@pixelbin/admin'
import sharp from 'sharp'
import { afterAll, beforeAll } from 'vitest'
import { API_TOKEN_PREFIX, randomToken, sha256 } from '../accounts/auth.ts'
import type { SigningKey } from '../db/index.ts'
import { useLoopbackHost } from '../test-loopback.ts'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

export const png = (width: number, height: number, colour = { r: 200, g: 40, b: 40 }) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer()

export interface SdkError {
  name: string
  message: string
  code: number
  details: { code?: string; message?: string }
}

/** The SDK's rejection of `call`, as PDKServerResponseError carries it. */
export async function failureOf(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call
  } catch (error) {
    return error as SdkError
  }
  throw new Error('the call succeeded')
}

export const widthOf = async (response: Response) =>
  (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width

/**
 * Starts the remote image host and a server with Acme (`cloudName`, a token and a signing key)
 * and Rival (a token), each with an SDK client, before the suite's tests; stops them after.
 */
export function usePixelbinSuite(kind: TestDatabaseKind) {
  let remote: Buffer
  let dir: string
  let token: string
  let key: SigningKey
  let pixelbin: PixelbinClient
  let rival: PixelbinClient
  const cloudName = `acme-${kind}`

  async function tokenOf(organisationId: string): Promise<string> {
    const made = `${API_TOKEN_PREFIX}${randomToken()}`
    await suite.server.services.context.repo.createApiToken(organisationId, {
      name: 'sdk suite',
      tokenHash: sha256(made),
      prefix: made.slice(0, 10),
      createdBy: null,
    })
    return made
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-sdk-'))
    remote = await png(24, 24, { r: 10, g: 120, b: 200 })
  }, 120_000)
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const source = useLoopbackHost((req, res) => {
    if (req.url === '/remote.png') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(remote)
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  const suite = useTestServer(kind, { REMOTE_ALLOW_HOSTS: '127.0.0.1' })
  beforeAll(async () => {
    const { repo } = suite.server.services.context
    const acme = await repo.createOrganisation({ cloudName, name: 'Acme' })
    const other = await repo.createOrganisation({ cloudName: `rival-${kind}`, name: 'Rival' })
    token = await tokenOf(acme.id)
    const rivalToken = await tokenOf(other.id)
    key = await repo.createSigningKey(acme.id)
    pixelbin = new PixelbinClient(
      new PixelbinConfig({ domain: suite.server.url, apiSecret: token }),
    )
    rival = new PixelbinClient(
      new PixelbinConfig({ domain: suite.server.url, apiSecret: rivalToken }),
    )
  })

  /** A delivery URL answered by the test server (the answer's origin is PUBLIC_URL). */
  const local = (url: string) => {
    const parsed = new URL(url)
    return `${suite.server.url}${parsed.pathname}${parsed.search}`
  }

  /** Writes a square PNG of `width` px named `name` and returns its path. */
  const imagePath = async (
    name: string,
    width: number,
    colour?: { r: number; g: number; b: number },
  ) => {
    const path = join(dir, name)
    await writeFile(path, await png(width, width, colour))
    return path
  }

  /** Uploads Acme's public 40 px `shoes/red/boot.png`, tagged red and sale, through the SDK. */
  const uploadBoot = async () =>
    pixelbin.assets.fileUpload({
      file: createReadStream(await imagePath('boot.png', 40)),
      path: 'shoes/red',
      name: 'boot',
      access: 'public-read',
      tags: ['red', 'sale'],
      metadata: { sku: 'B-1', stock: 3 },
    })

  return {
    cloudName,
    /** The remote image host on loopback, serving `/remote.png`. */
    source,
    get server() {
      return suite.server
    },
    get token() {
      return token
    },
    get key() {
      return key
    },
    get pixelbin() {
      return pixelbin
    },
    get rival() {
      return rival
    },
    local,
    imagePath,
    uploadBoot,
  }
}
