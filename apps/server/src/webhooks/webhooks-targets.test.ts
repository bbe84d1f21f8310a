// Webhooks through the real server, their limits: targets on private or loopback addresses are
// refused at registration and again at delivery unless allow-listed (REMOTE_ALLOW_HOSTS), and a
// webhook is its organisation's and its owners'. (What arrives: webhooks-delivery.test.ts.)
import { expect, it } from 'vitest'
import { expectError } from '../test-client.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { ASSETS, useWebhooksSuite } from './webhooks-suite.ts'

describeEachDatabase('server', 'webhooks on %s', useWebhooksSuite, (suite) => {
  const { hookUrl, until, newOrganisation } = suite

  it('refuses private and loopback targets at registration unless allow-listed', async () => {
    const { account, webhooks } = await newOrganisation()
    for (const [url, code] of [
      [`http://localhost:${suite.receiver.port}/x`, 'webhook_blocked_address'],
      ['https://10.0.0.1/x', 'webhook_blocked_address'],
      ['https://169.254.169.254/latest/meta-data', 'webhook_blocked_address'],
      ['https://[::1]/x', 'webhook_blocked_address'],
      ['http://example.com/x', 'invalid_webhook_url'],
      ['ftp://example.com/x', 'webhook_invalid_url'],
      ['https://user:pass@example.com/x', 'webhook_invalid_url'],
      ['not a url', 'webhook_invalid_url'],
    ] as const) {
      expectError(
        await suite.client.call('POST', webhooks, { cookie: account.cookie, body: { url } }),
        400,
        code,
      )
    }
    expectError(
      await suite.client.call('POST', webhooks, {
        cookie: account.cookie,
        body: { url: hookUrl(), events: ['file.exploded'] },
      }),
      400,
      'invalid_body',
    )
    expectError(
      await suite.client.call('POST', webhooks, { cookie: account.cookie, body: {} }),
      400,
      'invalid_body',
    )
    const list = await suite.client.call('GET', webhooks, { cookie: account.cookie })
    expect(list.body).toEqual([])
  })

  it('refuses a target at delivery once it is no longer allowed', async () => {
    const { account, token, webhooks } = await newOrganisation()
    const made = await suite.client.call('POST', webhooks, {
      token,
      body: { url: hookUrl('later'), events: ['folder.created'] },
    })
    expect(made.status).toBe(201)
    const allowHosts = suite.server.services.context.config.remote.allowHosts
    allowHosts.splice(allowHosts.indexOf('127.0.0.1'), 1)
    try {
      await suite.client.call('POST', `${ASSETS}/org/${account.organisation._id}/folders`, {
        token,
        body: { name: 'blocked' },
      })
      const item = await until(async () => {
        const answer = await suite.client.call('GET', `${webhooks}/deliveries`, { token })
        const [first] = (
          answer.body as { items: { status: string; error: string; attempts: number }[] }
        ).items
        return first?.status === 'failed' ? first : undefined
      })
      expect(item.error).toMatch(/private|local/)
      expect(item.attempts).toBe(1)
      expect(suite.receiver.received.some((entry) => entry.path === '/later')).toBe(false)
    } finally {
      allowHosts.push('127.0.0.1')
    }
  })

  it('keeps webhooks to their organisation and to owners', async () => {
    const owner = await newOrganisation()
    const made = await suite.client.call('POST', owner.webhooks, {
      token: owner.token,
      body: { url: hookUrl() },
    })
    const hook = made.body as { _id: string }
    const stranger = await newOrganisation()
    for (const [method, path] of [
      ['GET', `${stranger.webhooks}/${hook._id}`],
      ['PATCH', `${stranger.webhooks}/${hook._id}`],
      ['DELETE', `${stranger.webhooks}/${hook._id}`],
      ['POST', `${stranger.webhooks}/${hook._id}/ping`],
    ] as const) {
      expectError(
        await suite.client.call(method, path, {
          cookie: stranger.account.cookie,
          ...(method === 'PATCH' ? { body: { active: false } } : {}),
        }),
        404,
        'webhook_not_found',
      )
    }
    expectError(
      await suite.client.call('GET', owner.webhooks, { token: stranger.token }),
      404,
      'organisation_not_found',
    )
    const { member } = await suite.client.join(owner.account)
    expect((await suite.client.call('GET', owner.webhooks, { cookie: member.cookie })).status).toBe(
      200,
    )
    expectError(
      await suite.client.call('POST', owner.webhooks, {
        cookie: member.cookie,
        body: { url: hookUrl() },
      }),
      403,
      'forbidden',
    )
    const paused = await suite.client.call('PATCH', `${owner.webhooks}/${hook._id}`, {
      token: owner.token,
      body: { active: false },
    })
    expect(paused.body).toMatchObject({ active: false })
    expect(
      (await suite.client.call('DELETE', `${owner.webhooks}/${hook._id}`, { token: owner.token }))
        .status,
    ).toBe(200)
    expectError(
      await suite.client.call('GET', `${owner.webhooks}/${hook._id}`, { token: owner.token }),
      404,
      'webhook_not_found',
    )
  })
})
