// Test support for the AI operation suites (ai-operations-*.test.ts): one AI service per file,
// serving every server the file starts (each model loads once in a file), and a server on which
// an organisation without strict transformations holds small sample inputs and an API token;
// delivery URLs are fetched until their job has stored the image.
import { readFile } from 'node:fs/promises'
import { type Ai, createAi } from '@tessera/engine'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { fetchWhileQueued, type OwnerSetUp, type TestFile, useTestServer } from '../test-suite.ts'

import type { ContextStep, TransformationContextAnswer } from '../transformation/context.ts'
import { TRANSFORMATION_CONTEXT } from '../transformation/paths.ts'

export const SAMPLES = new URL('../../demo/samples/', import.meta.url)
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

/** Owner set-up of an AI server: unsigned AI URLs, with these files and an API token. */
function aiOwner(files: Record<string, TestFile>): OwnerSetUp {
  // Unsigned URLs run AI operations only without strict transformations (on for new
  // organisations; strict-transformations tests cover them).
  return { files, settings: { strictTransformations: false }, token: true }
}

/**
 * Starts a server using `ai()` before the suite's tests, with 1000 credits for new organisations
 * and an owner whose organisation takes unsigned AI URLs and holds `files`, and an API token of
 * it; stops it after. `urlOf` names a delivery URL of the owner's, `contextOf` asks for the
 * transformation context of one with the token.
 */
export function useAiServer(kind: TestDatabaseKind, ai: () => Ai, files: Record<string, TestFile>) {
  const suite = useTestServer(kind, { FREE_PLAN_CREDITS: '1000' }, () => ({
    ai: ai(),
    owner: aiOwner(files),
  }))
  const urlOf = (pattern: string, path: string) =>
    `/v2/${suite.owner.organisation.cloudName}/${pattern}/${path}`
  const contextOf = (url: string) =>
    suite.call('GET', `${TRANSFORMATION_CONTEXT}?url=${encodeURIComponent(url)}`, {
      token: suite.token,
    })
  return { suite, urlOf, contextOf }
}

/** Makes a value at the first call only, and answers that value at every call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => {
    made ??= make()
    return made
  }
}

/** The cat sample, 96 px wide: a small PNG input. */
export const smallCat = once(async () =>
  sharp(await readFile(new URL('chelsea.png', SAMPLES)))
    .resize(96)
    .png()
    .toBuffer(),
)

/** The sample inputs under `in/` of the AI operation suites, made once a worker. */
const SAMPLE_INPUTS: Record<string, () => Promise<Buffer>> = {
  'in/horse.png': once(() => readFile(new URL('horse.png', SAMPLES))),
  'in/astronaut.png': once(() => readFile(new URL('astronaut.png', SAMPLES))),
  'in/astronaut-wm.png': once(() => readFile(new URL('astronaut-wm.png', SAMPLES))),
  'in/small.png': smallCat,
  'in/text.png': once(textImage),
}

/**
 * Starts a server using `ai()` before the suite's tests (`useAiServer`), its owner holding the
 * sample inputs under `in/`; stops it after.
 */
export function useAiOperationsSuite(kind: TestDatabaseKind, ai: () => Ai) {
  const { suite, urlOf, contextOf: contextAnswer } = useAiServer(kind, ai, SAMPLE_INPUTS)
  /** The stored inputs' bytes, by path. */
  const files = new Map<string, Buffer>()
  beforeAll(async () => {
    for (const [path, make] of Object.entries(SAMPLE_INPUTS)) files.set(path, await make())
  })

  /** Fetches a delivery URL: first 202 (queued), then 200 once the job has stored the image. */
  async function deliver(pattern: string, path: string): Promise<Buffer> {
    const url = `${suite.server.url}${urlOf(pattern, path)}`
    const queued = await fetch(url)
    expect(queued.status, `${pattern}: ${await queued.clone().text()}`).toBe(202)
    expect(queued.headers.get('retry-after')).toBe('1')
    await queued.arrayBuffer()
    const response = await fetchWhileQueued(url)
    expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^image\//)
    return Buffer.from(await response.arrayBuffer())
  }

  /** The context of a URL already delivered: read from the cache, no job run again. */
  async function contextOf(pattern: string, path: string): Promise<ContextStep[]> {
    const before = await suite.server.services.jobs.drain()
    expect(before).toBe(0)
    const answer = await contextAnswer(urlOf(pattern, path))
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(await suite.server.services.jobs.drain()).toBe(0)
    return (answer.body as TransformationContextAnswer).context.steps
  }

  return {
    get server() {
      return suite.server
    },
    get client() {
      return suite.client
    },
    get owner() {
      return suite.owner
    },
    get token() {
      return suite.token
    },
    files,
    urlOf,
    deliver,
    contextOf,
  }
}

export type AiOperationsSuite = ReturnType<typeof useAiOperationsSuite>

/**
 * An AI operations test file's suite: the file's AI service (`useAiService`), and `tests` over
 * `useAiOperationsSuite` on each database the run uses, every server sharing that service.
 */
export function describeAiOperations(tests: (suite: AiOperationsSuite) => void) {
  const ai = useAiService()
  describe.each(testDatabases('server'))('AI operations over HTTP on %s', (kind) => {
    tests(useAiOperationsSuite(kind, ai))
  })
}
