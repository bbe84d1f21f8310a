// Google one-tap in Chromium against a real server (SPEC §4, §6, §8): offered to a logged-out
// visitor, not in preview, the SPEC error for an empty callback, a script that does not load, and
// signing in with it (greeting, AUTHORISED_USER, the chat widget). The vendors are stood in for
// (integrations-vendors.ts); analytics and error reporting: integrations-analytics.test.ts.
import { describe, expect, it } from 'vitest'
import { settled } from './harness.ts'
import {
  CHAT_TOKEN,
  CLIENT_ID,
  dataLayer,
  googlePerson,
  gsiCalls,
  INVALID_NOTIFICATION,
  integrationPages,
  thirdPartySuite,
  withKeysEnv,
} from './integrations-vendors.ts'
import { webSuite } from './suite.ts'

const vendors = thirdPartySuite()
const web = webSuite(() => withKeysEnv(vendors.third))
const { open, cspViolations, isGsi, isChatScript } = integrationPages(web, vendors)

describe('Google one-tap (SPEC §4, §6, §8)', () => {
  it('is offered to a logged-out visitor once the session check has settled', async () => {
    const { page, context, requests, errors } = await open('desktop', { mode: 'none' })
    await page.goto('/pricing')
    await page.waitForFunction(
      () => (window as unknown as { __gsi?: { prompts: number } }).__gsi?.prompts === 1,
    )
    expect(await gsiCalls(page)).toMatchObject({
      initialize: [{ client_id: CLIENT_ID }],
      prompts: 1,
    })
    expect(requests.filter(isGsi)).toHaveLength(1)
    // The server found no session cookie while rendering: logged out, and no session call.
    expect(requests.filter((r) => r.url().includes('/users/v1.0/session'))).toEqual([])
    expect(await page.getByTestId('login-link').first().getAttribute('href')).toBeTruthy()
    expect(errors).toEqual([])
    await context.close()
  })

  it('is not offered in preview mode', async () => {
    const { page, context, requests } = await open('desktop', { mode: 'none' })
    await page.goto('/features?__preview=true')
    await settled(page)
    await page.getByTestId('login-link').first().waitFor({ state: 'attached' })
    expect(requests.filter(isGsi)).toEqual([])
    expect(await page.evaluate(() => 'google' in window)).toBe(false)
    await context.close()
  })

  it('throws the SPEC error when Google calls back with no object, and the visitor stays out', async () => {
    const { page, context, errors } = await open('desktop', { mode: 'missing' })
    await page.goto('/')
    await expect.poll(() => errors).toContain(INVALID_NOTIFICATION)
    await settled(page)
    expect(await page.getByTestId('profile-button').count()).toBe(0)
    await context.close()
  })

  it('logs a script that does not load and keeps the Login and Sign up buttons (SPEC §8)', async () => {
    const { page, context, consoleErrors, errors } = await open('desktop', { mode: 'none' })
    await page.route(`${vendors.third.url}/gsi/client`, (route) => route.abort('blockedbyclient'))
    await page.goto('/faqs')
    await expect
      .poll(() => consoleErrors.join('\n'))
      .toContain('One-tap: Google Identity Services did not load')
    expect(await page.getByTestId('signup-link').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('profile-button').count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  describe.each(['desktop', 'mobile'] as const)('at %s width', (viewport) => {
    it('signs in with one-tap: greeting without a reload, AUTHORISED_USER, then the chat widget', async () => {
      const person = googlePerson(viewport === 'desktop' ? 'Grace' : 'Ada')
      const credential = await vendors.third.sign(person)
      const { page, context, requests, errors } = await open(viewport, {
        mode: 'credential',
        credential,
      })
      let loads = 0
      page.on('load', () => {
        loads += 1
      })
      const signIn = page.waitForRequest(
        (request) =>
          request.method() === 'POST' &&
          request.url().endsWith('/service/panel/users/v1.0/auth/google'),
      )
      await page.goto('/?fp_ref=partner-7')
      const posted = await signIn
      const answer = await posted.response()
      expect(answer?.status()).toBe(201)
      const body = posted.postDataJSON() as Record<string, unknown>
      const anonymousId = await page.evaluate(() => localStorage.getItem('pixb_anonymous_id'))
      expect(body).toEqual({
        credential,
        state: { path: '/', anonymousId },
        affiliate: { fp_ref: 'partner-7' },
      })
      expect(posted.headers()['x-ebg-signature']).toMatch(/^v1:[0-9a-f]{64}$/)

      const name = page.getByTestId('profile-name').first()
      await expect.poll(() => name.textContent()).toBe(`Hi, ${person.given_name}`)
      expect(loads).toBe(1)

      // Identified as a signed-in user, and only then the chat widget.
      await expect
        .poll(async () => (await dataLayer(page)).filter((e) => e.event === 'AUTHORISED_USER'))
        .toHaveLength(1)
      const user = (await answer?.json()) as { user: { _id: string } }
      const identify = (await dataLayer(page)).find((entry) => entry.event === 'identify')
      expect(identify).toMatchObject({ userId: user.user._id, email: person.email, anonymousId })
      const chatAt = requests.findIndex(isChatScript)
      expect(chatAt).toBeGreaterThan(requests.indexOf(posted))
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __chat?: [] }).__chat ?? []))
        .toEqual([
          {
            token: CHAT_TOKEN,
            host: vendors.third.url,
            externalId: user.user._id,
            firstName: person.given_name,
            lastName: 'Hopper',
            email: person.email,
          },
        ])
      expect(errors).toEqual([])

      // The next page: a signed-in user gets no one-tap, and the restore call carries restoreId.
      await expect
        .poll(() =>
          page.evaluate((id) => localStorage.getItem(`tessera.chatRestoreId.${id}`), user.user._id),
        )
        .toBe(`restore-${user.user._id}`)
      const before = requests.length
      await page.goto('/pricing')
      await settled(page)
      await expect.poll(() => name.textContent()).toBe(`Hi, ${person.given_name}`)
      expect(requests.slice(before).filter(isGsi)).toEqual([])
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __chat?: [] }).__chat ?? []))
        .toMatchObject([{ externalId: user.user._id, restoreId: `restore-${user.user._id}` }])
      await context.close()
    })
  })
})

// Last: the vendors' scripts (configured hosts) ran under the pages' Content-Security-Policy.
it('loaded every integration without a Content-Security-Policy violation', () => {
  expect(cspViolations).toEqual([])
})
