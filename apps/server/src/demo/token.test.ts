import { describe, expect, it } from 'vitest'
import { defaultTestDatabase } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { DEMO_TOKEN_NAME, ensureDemoToken } from './token.ts'

describe('the demo API token', () => {
  const suite = useTestServer(defaultTestDatabase())

  it('exists after the first start, and is not made again while one is live', async () => {
    const { repo } = suite.server.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    const tokens = await repo.listApiTokens(demo?.id ?? '')
    expect(tokens.map((token) => token.name)).toEqual([DEMO_TOKEN_NAME])
    expect(await ensureDemoToken(suite.server.services.context)).toBeUndefined()
  })

  it('is made anew once revoked, and works for uploads to the demo organisation', async () => {
    const { repo } = suite.server.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    for (const token of await repo.listApiTokens(demo?.id ?? '')) {
      await repo.revokeApiToken(demo?.id ?? '', token.id)
    }
    const token = await ensureDemoToken(suite.server.services.context)
    expect(token).toMatch(/^tsk_/)
    const answer = await fetch(`${suite.server.url}/service/panel/organization/v1.0/${demo?.id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toMatchObject({ cloudName: 'demo', role: 'token' })
  })
})
