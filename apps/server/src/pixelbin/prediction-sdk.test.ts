// Pixelbin's predictions through the real `@pixelbin/admin` SDK against the real server: list and
// getSchema in Pixelbin's shapes, create with an image as a file part or as a URL, get, wait and
// createAndWait until SUCCESS with an output that delivers, FAILURE refunded, and bad input a
// clear 4xx with nothing queued or spent.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, expectError } from '../test-client.ts'
import { storeTestFile, type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

const SAMPLE = new URL('../../demo/samples/astronaut.png', import.meta.url)
const PLATFORM = '/service/platform/transformation/v1.0/predictions'

interface Prediction {
  _id: string
  status: 'ACCEPTED' | 'SUCCESS' | 'FAILURE'
  urls: { get: string }
  input: Record<string, unknown>
  orgId: string
  retention: string
  createdAt: string
  output?: string[]
  consumedCredits?: number
  error?: string
}
interface SdkPredictions {
  list(): Promise<{ name: string; displayName: string; description: string; bannerImage: string }[]>
  getSchema(name: string): Promise<{
    name: string
    displayName: string
    description: string
    input: { type: string; properties: Record<string, unknown>; required: string[] }
  }>
  create(options: Record<string, unknown>): Promise<Prediction>
  get(id: string): Promise<Prediction>
  wait(id: string, options?: Record<string, unknown>): Promise<Prediction>
  createAndWait(options: Record<string, unknown>): Promise<Prediction>
}
const sdk = createRequire(import.meta.url)('@pixelbin/admin') as {
  PixelbinConfig: new (options: { domain: string; apiSecret: string }) => unknown
  PixelbinClient: new (config: unknown) => { predictions: SdkPredictions }
}
// The SDK polls at least once a second; ten minutes at most.
const WAIT = { retryInterval: 1000, maxAttempts: 150, retryFactor: 1 }

describe.each<TestDatabaseKind>(testDatabases('server'))('platform predictions on %s', (kind) => {
  // The SDK follows the absolute URLs the server gives: they must name this server (port 0).
  const suite = useTestServer(kind, {}, { ownPublicUrl: true })
  let image: Buffer

  beforeAll(async () => {
    image = await readFile(SAMPLE)
  })

  /** A new organisation with 50 credits and the SDK on a token of it. */
  async function newOrganisation() {
    const account = await suite.client.signup()
    const { token } = await suite.client.createToken(account)
    const pixelbin = new sdk.PixelbinClient(
      new sdk.PixelbinConfig({ domain: suite.server.url, apiSecret: token }),
    )
    const balance = async () =>
      (await suite.server.services.context.repo.findOrganisationById(account.organisation._id))
        ?.credits
    return { account, token, predictions: pixelbin.predictions, balance }
  }

  it('lists the predictions and answers schemas in Pixelbin’s shapes', async () => {
    const { predictions } = await newOrganisation()
    const list = await predictions.list()
    expect(Array.isArray(list)).toBe(true)
    const crop = list.find((item) => item.name === 'ic_crop')
    expect(crop).toMatchObject({ displayName: 'Intelligent crop' })
    expect(crop?.description.length).toBeGreaterThan(0)
    expect(crop?.bannerImage).toMatch(/^http/)
    const schema = await predictions.getSchema('ic_crop')
    expect(schema).toMatchObject({ name: 'ic_crop', displayName: 'Intelligent crop' })
    expect(schema.input.type).toBe('object')
    expect(schema.input.required).toContain('image')
    expect(Object.keys(schema.input.properties)).toEqual(
      expect.arrayContaining(['image', 'requiredWidth', 'requiredHeight']),
    )
  })

  it('creates a prediction from an image file part, and wait gives its delivered output', async () => {
    const { account, predictions, balance } = await newOrganisation()
    const created = await predictions.create({
      name: 'ic_crop',
      input: { image, requiredWidth: 64, requiredHeight: 48, gravityTowards: 'face' },
    })
    expect(created._id).toMatch(/^ic--crop--[0-9a-f-]{36}$/)
    expect(created).toMatchObject({
      status: 'ACCEPTED',
      orgId: account.organisation._id,
      retention: '30d',
      input: { requiredWidth: '64', requiredHeight: '48', image: 'image.jpeg' },
    })
    expect(created.urls.get).toBe(`${suite.server.url}${PLATFORM}/${created._id}`)
    expect(await balance()).toBe(49)
    const polled = await predictions.get(created._id)
    expect(['ACCEPTED', 'SUCCESS']).toContain(polled.status)
    const done = await predictions.wait(created._id, WAIT)
    expect(done.status, done.error).toBe('SUCCESS')
    expect(done.consumedCredits).toBe(1)
    expect(done.output).toHaveLength(1)
    const output = await fetch(done.output?.[0] as string)
    expect(output.status).toBe(200)
    const probe = await suite.server.services.context.engine.probe(
      Buffer.from(await output.arrayBuffer()),
    )
    expect([probe.width, probe.height]).toEqual([64, 48])
    // The sent image was kept only until the prediction ran.
    const left: string[] = []
    const prefix = `orgs/${account.organisation._id}/prediction-inputs/`
    for await (const key of suite.server.services.context.storage.list(prefix)) left.push(key)
    expect(left).toEqual([])
  })

  it('createAndWait runs on an image named by path, and FAILURE is refunded', async () => {
    const { account, predictions, balance } = await newOrganisation()
    await storeTestFile(suite.server, account.organisation._id, 'photos/astronaut.png', image)
    const done = await predictions.createAndWait({
      name: 'ic_crop',
      // Pixelbin's SDK writes input names in snake_case (its README's industry_type): both read.
      input: { image: 'photos/astronaut.png', required_width: 32, required_height: 32 },
      options: WAIT,
    })
    expect(done.status, done.error).toBe('SUCCESS')
    expect((await fetch(done.output?.[0] as string)).status).toBe(200)
    // A URL on a private address fails when the job fetches it (for good: the remote rules
    // refuse it), and its credit comes back.
    const failed = await predictions.createAndWait({
      name: 'ic_crop',
      input: { image: 'http://10.255.255.1/missing.png', requiredWidth: 32 },
      options: WAIT,
    })
    expect(failed.status).toBe('FAILURE')
    expect(failed.error?.length).toBeGreaterThan(0)
    expect(failed.consumedCredits).toBe(0)
    expect(await balance()).toBe(49)
  })

  it('refuses bad input with a clear 4xx, queuing and spending nothing', async () => {
    const { token, predictions, balance } = await newOrganisation()
    const refused = async (options: Record<string, unknown>, status: number, text: string) => {
      const error = (await predictions.create(options).then(
        () => undefined,
        (caught: unknown) => caught,
      )) as { code?: number; message?: string } | undefined
      expect(error?.code, JSON.stringify(error?.message)).toBe(status)
      expect(error?.message).toContain(text)
    }
    await refused({ name: 'no_such', input: { image } }, 404, 'No prediction')
    await refused({ name: 'ic_crop', input: { requiredWidth: 10 } }, 400, 'image')
    await refused(
      { name: 'ic_crop', input: { image, requiredWidth: 'wide' } },
      400,
      'requiredWidth',
    )
    await refused({ name: 'ic_crop', input: { image, colour: 'red' } }, 400, 'colour')
    // Pixelbin's erase_bg inputs map onto this server's, checked before anything runs.
    await refused(
      { name: 'erase_bg', input: { image, industry_type: 'boat' } },
      400,
      'industryType',
    )
    await refused({ name: 'erase_bg', input: { image, shadow: 'maybe' } }, 400, 'addShadow')
    await refused({ name: 'erase_bg', input: { image, quality_type: 'best' } }, 400, 'quality_type')
    const garbage = (await predictions
      .create({ name: 'ic_crop', input: { image: Buffer.from('not an image') } })
      .catch((caught: unknown) => caught)) as { code?: number }
    expect(garbage.code).toBeGreaterThanOrEqual(400)
    expect(garbage.code).toBeLessThan(500)
    await refused(
      { name: 'ic_crop', input: { image }, webhook: 'http://10.0.0.1/hook' },
      400,
      'webhook',
    )
    expect(await balance()).toBe(50)
    // Unknown ids, another organisation's ids and no token: 404 / 401.
    const api = createTestClient(suite.server)
    expectError(
      await api.call('GET', `${PLATFORM}/ic--crop--nothing`, { token }),
      404,
      'prediction_not_found',
    )
    const mine = await predictions.create({ name: 'ic_crop', input: { image, requiredWidth: 16 } })
    const other = await newOrganisation()
    expectError(
      await api.call('GET', `${PLATFORM}/${mine._id}`, { token: other.token }),
      404,
      'prediction_not_found',
    )
    expectError(
      await api.call('GET', `${PLATFORM}/${mine._id.replace('ic--crop', 'erase--bg')}`, { token }),
      404,
      'prediction_not_found',
    )
    expectError(await api.call('GET', `${PLATFORM}/${mine._id}`), 401, 'unauthenticated')
    expectError(
      await api.call('POST', `${PLATFORM}/ic/crop`, { token, body: { image: 'x' } }),
      415,
      'unsupported_media_type',
    )
  })
})
