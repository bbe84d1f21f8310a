// The AI step's result as an intermediate (issue 24 item 3): a chain with ordinary steps after
// its AI step is made from the stored result of the chain up to that step, which is queued and
// charged once; editing the later steps renders at once and charges nothing more.
import { expect, it } from 'vitest'
import { CREDITS_PER_AI_OPERATION } from '../billing/credits.ts'
import { PNG_1PX } from '../test-client.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'

describeEachDatabase('server', 'AI intermediates on %s', useTestServer, (suite) => {
  async function setUp() {
    // Unsigned URLs may run AI operations only without strict transformations.
    const owner = await suite.signUp({
      files: { 'dot.png': PNG_1PX },
      settings: { strictTransformations: false },
    })
    const organisationId = owner.organisation._id
    const { repo } = suite.server.services.context
    const balance = async () =>
      (await repo.creditSummary(organisationId))?.organisation.credits ?? Number.NaN
    return {
      owner,
      organisationId,
      balance,
      base: `${suite.server.url}/v2/${owner.organisation.cloudName}`,
    }
  }

  /** Fetches `url` until the job behind it is done (bounded), counting the 202s. */
  async function fetchDone(url: string): Promise<{ response: Response; queued: number }> {
    let queued = 0
    for (let attempt = 0; attempt < 100; attempt++) {
      const response = await fetch(url)
      if (response.status !== 202) return { response, queued }
      await response.arrayBuffer()
      queued++
      await suite.server.services.jobs.drain()
      await new Promise((resolve) => setTimeout(resolve, 20 * Math.min(attempt + 1, 10)))
    }
    throw new Error(`${url} stayed 202`)
  }

  it('charges once for ai~t.resize(w:100) then ai~t.resize(w:101), and renders the edit at once', async () => {
    const { balance, base } = await setUp()
    const before = await balance()
    const first = await fetchDone(`${base}/ic.crop(w:1,h:1)~t.resize(w:100)/dot.png`)
    expect(first.response.status).toBe(200)
    expect(first.queued).toBeGreaterThan(0)
    const firstImage = await suite.server.services.context.engine.probe(
      Buffer.from(await first.response.arrayBuffer()),
    )
    expect(firstImage.width).toBe(100)
    expect(await balance()).toBe(before - CREDITS_PER_AI_OPERATION)

    // The edit of the later step: no job, no charge, the new width.
    const edited = await fetch(`${base}/ic.crop(w:1,h:1)~t.resize(w:101)/dot.png`)
    expect(edited.status).toBe(200)
    const editedImage = await suite.server.services.context.engine.probe(
      Buffer.from(await edited.arrayBuffer()),
    )
    expect(editedImage.width).toBe(101)
    // Another later step, and the AI step's own URL, are free as well.
    const more = await fetch(`${base}/ic.crop(w:1,h:1)~t.resize(w:102)~t.flip()/dot.png`)
    expect(more.status).toBe(200)
    await more.arrayBuffer()
    const own = await fetch(`${base}/ic.crop(w:1,h:1)/dot.png`)
    expect(own.status).toBe(200)
    await own.arrayBuffer()
    expect(await balance()).toBe(before - CREDITS_PER_AI_OPERATION)

    // Changing the AI step itself is a new model run: charged once more.
    const other = await fetchDone(`${base}/ic.crop(w:1,h:1,p:3)~t.resize(w:100)/dot.png`)
    expect(other.response.status).toBe(200)
    await other.response.arrayBuffer()
    expect(await balance()).toBe(before - 2 * CREDITS_PER_AI_OPERATION)
  })

  it("keeps the whole chain's context: the AI step's, then the later steps'", async () => {
    const { owner, base } = await setUp()
    await (await fetchDone(`${base}/ic.crop(w:1,h:1)/dot.png`)).response.arrayBuffer()
    const url = `${base}/ic.crop(w:1,h:1)~t.resize(w:64)/dot.png`
    const answer = await suite.client.call(
      'GET',
      `/service/panel/transformation/v1.0/context?url=${encodeURIComponent(url)}`,
      { cookie: owner.cookie },
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const { context } = answer.body as {
      context: { steps: { identifier: string; name: string }[] }
    }
    expect(context.steps.map((step) => `${step.identifier}.${step.name}`)).toEqual([
      'ic.crop',
      't.resize',
    ])
  })

  it('answers 402 for the AI step without credits, and nothing is charged for a later edit', async () => {
    const { organisationId, balance, base } = await setUp()
    const { repo } = suite.server.services.context
    await repo.spendCredits(organisationId, await balance(), 'test_spend', 'drain')
    const refused = await fetch(`${base}/ic.crop(w:1,h:1,p:7)~t.resize(w:50)/dot.png`)
    expect(refused.status).toBe(402)
    await refused.arrayBuffer()
    const again = await fetch(`${base}/ic.crop(w:1,h:1,p:7)~t.resize(w:51)/dot.png`)
    expect(again.status).toBe(402)
    await again.arrayBuffer()
    expect(await balance()).toBe(0)
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })
})
