// Prediction jobs through the real server, on PGlite and PostgreSQL: a job runs the engine on an
// organisation's image and stores the output as one of its files, spends a credit (refunded when
// it fails for good), models this server cannot run are refused, hostile input gets a clear 4xx,
// and another organisation can neither create nor see the jobs.
import { readFile } from 'node:fs/promises'
import { beforeAll, expect, it } from 'vitest'
import { type CallOptions, expectError } from '../test-client.ts'
import { storeTestFile } from '../test-server.ts'
import { describeEachDatabase, type SignedUpAccount, useTestServer } from '../test-suite.ts'
import { CREDITS_PER_PREDICTION } from './job.ts'

const PREDICTIONS = '/service/panel/transformation/v1.0/org'
const ABSENT = '00000000-0000-4000-8000-000000000000'
const HOSTILE = ["' OR '1'='1", "x'; drop table jobs; --", '<script>x</script>', '%', '$1']
const SAMPLE = new URL('../../demo/samples/astronaut.png', import.meta.url)

interface JobAnswer {
  jobId: string
  predictionId: string
  status: 'queued' | 'running' | 'done' | 'failed'
  result?: {
    fileId: string
    path: string
    url: string
    format: string
    width: number
    height: number
    size: number
  }
  error?: string
}

describeEachDatabase('server', 'prediction jobs on %s', useTestServer, (suite) => {
  const { call } = suite
  let image: Buffer
  type Account = SignedUpAccount

  beforeAll(async () => {
    image = await readFile(SAMPLE)
  })

  const repo = () => suite.server.services.context.repo
  const predict = (account: Account, id: string) =>
    `${PREDICTIONS}/${account.organisation._id}/predictions/${id}`
  const jobPath = (account: Account, jobId: string) =>
    `${PREDICTIONS}/${account.organisation._id}/predictions/jobs/${jobId}`
  const balanceOf = async (account: Account) =>
    (await repo().findOrganisationById(account.organisation._id))?.credits

  /** Stores the sample image as a file of the account's organisation. */
  async function addFile(account: Account, path: string) {
    await storeTestFile(suite.server, account.organisation._id, path, image)
  }

  async function waitFor(account: Account, jobId: string): Promise<JobAnswer> {
    for (let attempt = 0; attempt < 300; attempt++) {
      const answer = await call('GET', jobPath(account, jobId), {
        cookie: account.cookie,
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      const job = answer.body as JobAnswer
      if (job.status === 'done' || job.status === 'failed') return job
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`job ${jobId} did not finish`)
  }

  it('runs a crop on a file of the organisation, stores the output and spends a credit', async () => {
    const owner = await suite.client.signup()
    await addFile(owner, 'photos/astronaut.png')
    const created = await call('POST', predict(owner, 'ic_crop'), {
      cookie: owner.cookie,
      body: {
        image: 'photos/astronaut.png',
        requiredWidth: 64,
        requiredHeight: 48,
        gravityTowards: 'face',
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(202)
    const { jobId } = created.body as JobAnswer
    expect(created.body).toMatchObject({
      status: 'queued',
      predictionId: 'ic_crop',
      credits: CREDITS_PER_PREDICTION,
      balance: 50 - CREDITS_PER_PREDICTION,
    })
    expect(created.response.headers.get('location')).toBe(jobPath(owner, jobId))

    const job = await waitFor(owner, jobId)
    expect(job.status, job.error).toBe('done')
    expect(job.result).toMatchObject({
      path: `predictions/ic_crop/${jobId}.png`,
      format: 'png',
      width: 64,
      height: 48,
    })
    const url = job.result?.url as string
    expect(url).toBe(
      `${suite.server.config.publicUrl}/v2/${owner.organisation.cloudName}/original/predictions/ic_crop/${jobId}.png`,
    )
    const output = await fetch(url.replace(suite.server.config.publicUrl, suite.server.url))
    expect(output.status).toBe(200)
    expect(output.headers.get('content-type')).toBe('image/png')
    const probe = await suite.server.services.context.engine.probe(
      Buffer.from(await output.arrayBuffer()),
    )
    expect([probe.width, probe.height]).toEqual([64, 48])

    expect(await balanceOf(owner)).toBe(50 - CREDITS_PER_PREDICTION)
    const entry = await repo().findCreditEntry(owner.organisation._id, 'prediction', jobId)
    expect(entry).toMatchObject({ delta: -CREDITS_PER_PREDICTION })
    expect(await repo().sumCreditLedger(owner.organisation._id)).toBe(await balanceOf(owner))
  })

  it('takes the image as a delivery URL of the original, and works with an API token', async () => {
    const owner = await suite.client.signup()
    await addFile(owner, 'a.png')
    const token = (await suite.client.createToken(owner, 'prediction tests')).token
    const image = `${suite.server.config.publicUrl}/v2/${owner.organisation.cloudName}/original/a.png`
    const created = await call('POST', predict(owner, 'ic_crop'), {
      token,
      body: { image, requiredWidth: 20, requiredHeight: 20 },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(202)
    const { jobId } = created.body as JobAnswer
    const polled = await call('GET', jobPath(owner, jobId), { token })
    expect(polled.status).toBe(200)
    const job = await waitFor(owner, jobId)
    expect(job.result).toMatchObject({ width: 20, height: 20 })
  })

  it('refuses models this server cannot run, without a job or a charge', async () => {
    const owner = await suite.client.signup()
    await addFile(owner, 'a.png')
    for (const id of ['generate_bg']) {
      expectError(
        await call('POST', predict(owner, id), {
          cookie: owner.cookie,
          body: { image: 'a.png' },
        }),
        501,
        'model_unavailable',
      )
    }
    expect(await balanceOf(owner)).toBe(50)
    expectError(
      await call('POST', predict(owner, 'no_such_model'), {
        cookie: owner.cookie,
        body: { image: 'a.png' },
      }),
      404,
      'prediction_not_found',
    )
  })

  it('answers 402 insufficient_credits when credits run out, and queues nothing', async () => {
    const owner = await suite.client.signup()
    await addFile(owner, 'a.png')
    await repo().spendCredits(owner.organisation._id, 48, 'test_spend', 'drain')
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('POST', predict(owner, 'ic_crop'), {
          cookie: owner.cookie,
          body: { image: 'a.png', requiredWidth: 10, requiredHeight: 10 },
        }),
      ),
    )
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(2)
    for (const answer of answers.filter((each) => each.status !== 202)) {
      expectError(answer, 402, 'insufficient_credits')
    }
    expect(await balanceOf(owner)).toBe(0)
    expect(await repo().sumCreditLedger(owner.organisation._id)).toBe(0)
  })

  it('refunds the credit of a job that fails for good', async () => {
    const owner = await suite.client.signup()
    const created = await call('POST', predict(owner, 'ic_crop'), {
      cookie: owner.cookie,
      body: {
        image: 'http://127.0.0.1:9/secret.png',
        requiredWidth: 10,
        requiredHeight: 10,
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(202)
    const { jobId } = created.body as JobAnswer
    const job = await waitFor(owner, jobId)
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/private|loopback|not allowed|blocked/i)
    expect(job.result).toBeUndefined()
    expect(await balanceOf(owner)).toBe(50)
    const refund = await repo().findCreditEntry(owner.organisation._id, 'prediction_refund', jobId)
    expect(refund).toMatchObject({ delta: CREDITS_PER_PREDICTION })
  })

  it('answers bad input with a clear 4xx and spends nothing', async () => {
    const owner = await suite.client.signup()
    await addFile(owner, 'a.png')
    const path = predict(owner, 'ic_crop')
    const cases: [unknown, number, string][] = [
      [{}, 400, 'invalid_input'],
      [{ image: 42 }, 400, 'invalid_input'],
      [{ image: '' }, 400, 'invalid_input'],
      [{ image: 'x'.repeat(3000) }, 400, 'invalid_input'],
      [{ image: 'a.png', requiredWidth: 'wide' }, 400, 'invalid_input'],
      [{ image: 'a.png', requiredWidth: 1.5 }, 400, 'invalid_input'],
      [{ image: 'a.png', requiredWidth: 1e12 }, 400, 'invalid_input'],
      [{ image: 'a.png', requiredWidth: -5 }, 400, 'invalid_input'],
      [{ image: 'a.png', requiredHeight: 10_001 }, 400, 'invalid_input'],
      [{ image: 'a.png', gravityTowards: 'sideways' }, 400, 'invalid_input'],
      [{ image: 'a.png', maintainOriginalAspect: 'yes' }, 400, 'invalid_input'],
      [{ image: 'a.png', aspectRatio: '16:9)' }, 400, 'invalid_input'],
      [{ image: 'a.png', w: 10 }, 400, 'invalid_input'],
      [{ image: 'file:///etc/passwd' }, 400, 'invalid_input'],
      [{ image: 'ftp://example.com/a.png' }, 400, 'invalid_input'],
      [{ image: '../a.png' }, 400, 'invalid_path'],
      [{ image: 'missing.png' }, 404, 'file_not_found'],
      [
        {
          image: `${suite.server.config.publicUrl}/v2/${owner.organisation.cloudName}/t.flip()/a.png`,
        },
        400,
        'invalid_input',
      ],
      [
        {
          image: `${suite.server.config.publicUrl}/v2/demo/original/samples/astronaut.png`,
        },
        404,
        'file_not_found',
      ],
      ...HOSTILE.map((text): [unknown, number, string] => [{ image: text }, 400, 'invalid_path']),
      ...HOSTILE.map((text): [unknown, number, string] => [
        { image: 'a.png', aspectRatio: text },
        400,
        'invalid_input',
      ]),
      ...HOSTILE.map((text): [unknown, number, string] => [
        { image: 'a.png', [text]: 1 },
        400,
        'invalid_input',
      ]),
    ]
    for (const [body, status, code] of cases) {
      const answer = await call('POST', path, { cookie: owner.cookie, body })
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(status)
      expectError(answer, status, code)
    }
    expectError(await call('POST', path, { cookie: owner.cookie, raw: '[1]' }), 400, 'invalid_body')
    expectError(
      await call('POST', path, { cookie: owner.cookie, raw: '{"image":' }),
      400,
      'invalid_json',
    )
    const huge = await call('POST', path, {
      cookie: owner.cookie,
      raw: JSON.stringify({ image: 'a.png', pad: 'x'.repeat(70_000) }),
    })
    expect(huge.status).toBe(413)
    expect(await balanceOf(owner)).toBe(50)
    for (const id of [ABSENT, 'not-a-uuid', "1' OR '1'='1"]) {
      expectError(
        await call('GET', jobPath(owner, encodeURIComponent(id)), {
          cookie: owner.cookie,
        }),
        404,
        'job_not_found',
      )
    }
    expectError(await call('GET', jobPath(owner, ABSENT)), 401, 'unauthenticated')
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })

  it("keeps every organisation's jobs and files to itself", async () => {
    const a = await suite.client.signup()
    const b = await suite.client.signup()
    await addFile(a, 'private/a.png')
    await addFile(b, 'b.png')
    const tokenA = (await suite.client.createToken(a)).token
    const created = await call('POST', predict(a, 'ic_crop'), {
      cookie: a.cookie,
      body: { image: 'private/a.png', requiredWidth: 8, requiredHeight: 8 },
    })
    expect(created.status).toBe(202)
    const { jobId } = created.body as JobAnswer
    await waitFor(a, jobId)

    // B cannot poll A's job, through its own organisation or A's.
    expectError(await call('GET', jobPath(b, jobId), { cookie: b.cookie }), 404, 'job_not_found')
    expectError(
      await call('GET', jobPath(a, jobId), { cookie: b.cookie }),
      404,
      'organisation_not_found',
    )
    // A's token and session cannot act on B's organisation; B cannot run a prediction on A's
    // file, by path or by URL.
    const aUrl = `${suite.server.config.publicUrl}/v2/${a.organisation.cloudName}/original/private/a.png`
    const refused: [CallOptions, string][] = [
      [{ token: tokenA, body: { image: 'b.png' } }, 'organisation_not_found'],
      [{ cookie: a.cookie, body: { image: 'b.png' } }, 'organisation_not_found'],
      [{ cookie: b.cookie, body: { image: 'private/a.png' } }, 'file_not_found'],
      [{ cookie: b.cookie, body: { image: aUrl } }, 'file_not_found'],
    ]
    for (const [options, code] of refused) {
      expectError(await call('POST', predict(b, 'ic_crop'), options), 404, code)
    }
    expect(await balanceOf(b)).toBe(50)
    expect(await balanceOf(a)).toBe(50 - CREDITS_PER_PREDICTION)
  })
})
