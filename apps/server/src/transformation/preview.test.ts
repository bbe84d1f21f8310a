// The console's previews by session (issue 24 item 5): an organisation that requires signed URLs
// refuses an unsigned delivery URL, while its members see the same image through the preview
// path; nobody else does, nothing there spends credits, and the answers are private.
import { expect, it } from 'vitest'
import { PNG_1PX } from '../test-client.ts'
import { storeTestFile } from '../test-server.ts'
import { describeEachDatabase, useTestServer } from '../test-suite.ts'
import { TRANSFORMATION_PREVIEW } from './paths.ts'

describeEachDatabase('server', 'console previews on %s', useTestServer, (suite) => {
  const preview = (url: string, cookie?: string) =>
    fetch(`${suite.server.url}${TRANSFORMATION_PREVIEW}?url=${encodeURIComponent(url)}`, {
      headers: cookie === undefined ? {} : { cookie: `bg.session=${cookie}` },
    })

  it('shows a signed-URL organisation its own thumbnails, and nobody else', async () => {
    const owner = await suite.client.signup()
    const { repo, lookups, engine } = suite.server.services.context
    const organisationId = owner.organisation._id
    await storeTestFile(suite.server, organisationId, 'pics/dot.png', PNG_1PX)
    await repo.updateOrganisationSettings(organisationId, { requireSignedUrls: true })
    lookups.forgetOrganisation({ id: organisationId, cloudName: owner.organisation.cloudName })
    const thumb = `${suite.server.url}/v2/${owner.organisation.cloudName}/t.resize(w:32,h:32)/pics/dot.png`

    // Delivery itself refuses the unsigned URL.
    const unsigned = await fetch(thumb)
    expect(unsigned.status).toBe(401)
    await unsigned.arrayBuffer()

    const seen = await preview(thumb, owner.cookie)
    expect(seen.status).toBe(200)
    expect(seen.headers.get('cache-control')).toBe('private, max-age=3600')
    expect(seen.headers.get('vary')).toContain('Cookie')
    const image = await engine.probe(Buffer.from(await seen.arrayBuffer()))
    expect([image.width, image.height]).toEqual([32, 32])
    // The original, by its path alone, too.
    const original = await preview(
      `/v2/${owner.organisation.cloudName}/original/pics/dot.png`,
      owner.cookie,
    )
    expect(original.status).toBe(200)
    await original.arrayBuffer()

    // No session: 401. Another organisation's member: 404, as for an unknown cloud name.
    const anonymous = await preview(thumb)
    expect(anonymous.status).toBe(401)
    await anonymous.arrayBuffer()
    const stranger = await suite.client.signup()
    const foreign = await preview(thumb, stranger.cookie)
    expect(foreign.status).toBe(404)
    expect(await foreign.json()).toMatchObject({ code: 'not_found' })
  })

  it('never runs an AI chain, and refuses bad URLs with a 4xx', async () => {
    const owner = await suite.client.signup()
    const { repo } = suite.server.services.context
    const organisationId = owner.organisation._id
    await storeTestFile(suite.server, organisationId, 'dot.png', PNG_1PX)
    const before = (await repo.creditSummary(organisationId))?.organisation.credits
    const ai = await preview(
      `/v2/${owner.organisation.cloudName}/ic.crop(w:1,h:1)/dot.png`,
      owner.cookie,
    )
    expect(ai.status).toBe(409)
    expect(await ai.json()).toMatchObject({ code: 'not_run' })
    expect((await repo.creditSummary(organisationId))?.organisation.credits).toBe(before)

    const cloud = owner.organisation.cloudName
    for (const bad of [
      '',
      'not a url',
      `/v2/${cloud}/t.resize(w:a)/dot.png`,
      `/v2/${cloud}/original/%zz.png`,
    ]) {
      const answer = await preview(bad, owner.cookie)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toMatchObject({ code: expect.any(String) })
    }
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
  })
})
