// Test support for the AI operation suites (ai-operations-*.test.ts): one AI service per file,
// serving every server the file starts (each model loads once in a file), and a server on which
// an organisation without strict transformations holds small sample inputs and an API token;
// delivery URLs are fetched until their job has stored the image.
import { readFile } from 'node:fs/promises'
import { type Ai, createAi } from '@tessera/engine'
import sharp from 'sharp'
import { afterAll, beforeAll, expect } from 'vitest'
import { createTestClient } from '../test-client.ts'
import {
  startTestServer,
  storeTestFile,
  type TestDatabaseKind,
  type TestServer,
} from '../test-server.ts'
import type { SignedUpAccount, TestClient } from '../test-suite.ts'
import type { ContextStep, TransformationContextAnswer } from '../transformation/context.ts'
import { TRANSFORMATION_CONTEXT } from '../transformation/paths.ts'

export const SAMPLES = new URL('../../demo/samples/', import.meta.url)
const ORG = '/service/panel/organization/v1.0'
export const PREDICTIONS = '/service/panel/transformation/v1.0/org'
/** Generous: a model's first call loads it, and the machine is shared. */
export const SLOW = 300_000
export const WORDS = 'Tessera reads every word 2026'

export interface Pixels {
  data: Buffer
  width: number
  height: number
  channels: number
}

export async function pixelsOf(input: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(input).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

export function at(image: Pixels, x: number, y: number): number[] {
  const start = (y * image.width + x) * image.channels
  return Array.from(image.data.subarray(start, start + image.channels))
}

/** The four corners, 2 px in. */
export function corners(image: Pixels): number[][] {
  const { width, height } = image
  return [
    at(image, 2, 2),
    at(image, width - 3, 2),
    at(image, 2, height - 3),
    at(image, width - 3, height - 3),
  ]
}

export async function textImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120">
    <rect width="100%" height="100%" fill="#fff"/>
    <text x="24" y="76" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#111">${WORDS}</text>
  </svg>`
  return await sharp(Buffer.from(svg)).png().toBuffer()
}

export const hasPerson = (labels: { label?: string; name?: string }[]) =>
  labels.some((item) => (item.label ?? item.name) === 'person')

/**
 * The file's AI service, made before its suites and closed after them; call it at the top of a
 * test file, outside the database matrix, so that every server of the file shares it.
 */
export function useAiService(): () => Ai {
  let ai: Ai | undefined
  beforeAll(() => {
    ai = createAi()
  })
  afterAll(async () => {
    await ai?.close()
  })
  return () => {
    if (ai === undefined) throw new Error('the AI service has not started')
    return ai
  }
}

/**
 * Starts a server using `ai()` before the suite's tests, with an owner whose organisation takes
 * unsigned AI URLs, the sample inputs under `in/` and an API token; stops it after.
 */
export function useAiOperationsSuite(kind: TestDatabaseKind, ai: () => Ai) {
  let server: TestServer
  let client: TestClient
  let owner: SignedUpAccount
  let token: string
  const files = new Map<string, Buffer>()

  async function addFile(path: string, image: Buffer) {
    await storeTestFile(server, owner.organisation._id, path, image)
    files.set(path, image)
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { FREE_PLAN_CREDITS: '1000' }, { ai: ai() })
    client = createTestClient(server)
    owner = await client.signup()
    const { repo, lookups } = server.services.context
    // Unsigned URLs run AI operations only without strict transformations (on for new
    // organisations; strict-transformations tests cover them).
    await repo.updateOrganisationSettings(owner.organisation._id, { strictTransformations: false })
    lookups.forgetOrganisation({
      id: owner.organisation._id,
      cloudName: owner.organisation.cloudName,
    })
    for (const name of ['horse.png', 'astronaut.png', 'astronaut-wm.png']) {
      await addFile(`in/${name}`, await readFile(new URL(name, SAMPLES)))
    }
    const cat = await readFile(new URL('chelsea.png', SAMPLES))
    await addFile('in/small.png', await sharp(cat).resize(96).png().toBuffer())
    await addFile('in/text.png', await textImage())
    const created = await client.call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
      cookie: owner.cookie,
      body: { name: 'ai tests' },
    })
    token = (created.body as { token: string }).token
  })
  afterAll(async () => {
    await server?.stop()
  })

  const urlOf = (pattern: string, path: string) =>
    `/v2/${owner.organisation.cloudName}/${pattern}/${path}`

  /** Fetches a delivery URL: first 202 (queued), then 200 once the job has stored the image. */
  async function deliver(pattern: string, path: string): Promise<Buffer> {
    const url = `${server.url}${urlOf(pattern, path)}`
    let response = await fetch(url)
    expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(202)
    expect(response.headers.get('retry-after')).toBe('1')
    await response.arrayBuffer()
    for (let attempt = 0; attempt < 3000 && response.status === 202; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      response = await fetch(url)
      if (response.status === 202) await response.arrayBuffer()
    }
    expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^image\//)
    return Buffer.from(await response.arrayBuffer())
  }

  /** The context of a URL already delivered: read from the cache, no job run again. */
  async function contextOf(pattern: string, path: string): Promise<ContextStep[]> {
    const before = await server.services.jobs.drain()
    expect(before).toBe(0)
    const answer = await client.call(
      'GET',
      `${TRANSFORMATION_CONTEXT}?url=${encodeURIComponent(urlOf(pattern, path))}`,
      { token },
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(await server.services.jobs.drain()).toBe(0)
    return (answer.body as TransformationContextAnswer).context.steps
  }

  return {
    get server() {
      return server
    },
    get client() {
      return client
    },
    get owner() {
      return owner
    },
    get token() {
      return token
    },
    files,
    urlOf,
    deliver,
    contextOf,
  }
}
