// Accounts in Chromium against a real server that mails through a real SMTP server in this
// process (decision 019), at 1440 and 390 px: forgot password from the login page and the mailed
// reset link; the sign-up confirmation link; the account page (password, sessions, address,
// deletion with the last-owner rule); an invited viewer whose Security page loads once and then
// makes no more requests (issue 24 item 4 looped ~11 requests a second); roles on the members
// page; and the operators' outbox when no SMTP server is configured.
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  firstOrganisation,
  openPage,
  overflows,
  settled,
  startWebServer,
  uniqueEmail,
  type ViewportName,
  type WebServer,
  watchUnexpectedErrors,
  workerBrowser,
} from './harness.ts'

const PASSWORD = 'a long enough password'
const TIMEOUT = 240_000

interface ReceivedMail {
  to: string[]
  subject: string
  text: string
}
interface TestSmtp {
  url: string
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>
  stop(): Promise<void>
}

// Loaded by path, as the harness loads the server (its sources are typed by the server's package).
async function startSmtp(): Promise<TestSmtp> {
  const module = (await import(
    new URL('../../server/src/mail/test-smtp.ts', import.meta.url).href
  )) as { startTestSmtp: () => Promise<TestSmtp> }
  return module.startTestSmtp()
}

/** The first link of a mail that contains `part`. */
function linkIn(mail: ReceivedMail, part: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(part))
  if (link === undefined) throw new Error(`No ${part} link in ${mail.text}`)
  return link
}

async function signUpAs(page: Page, email: string, firstName = 'Ada') {
  await page.goto('/console/auth/signup')
  await settled(page)
  await page.fill('#firstName', firstName)
  await page.fill('#lastName', 'Tester')
  await page.fill('#email', email)
  await page.fill('#password', PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/console/auth/login')
  await settled(page)
  await page.fill('#email', email)
  await page.fill('#password', password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

describe.each<ViewportName>(['desktop', 'mobile'])('accounts at %s width', (viewport) => {
  let server: WebServer
  let smtp: TestSmtp
  let browser: Browser

  beforeAll(async () => {
    smtp = await startSmtp()
    server = await startWebServer({ SMTP_URL: smtp.url })
    browser = await workerBrowser()
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.stop()
  })

  it(
    'confirms the sign-up address and resets a forgotten password through the mailed links',
    async () => {
      const email = uniqueEmail()
      const { page, context } = await openPage(browser, viewport, server.url)
      const errors = watchUnexpectedErrors(page)
      await signUpAs(page, email)
      await page.waitForURL(/\/console$/)
      const org = await firstOrganisation(page)

      // The confirmation link of the sign-up mail.
      const welcome = await smtp.waitFor(email, /Confirm your Tessera e-mail/)
      const account = `/console/organization/${org._id}/settings/account`
      await page.goto(account)
      await settled(page)
      await page.getByTestId('email-unverified').waitFor()
      await page.goto(linkIn(welcome, '/console/auth/verify-email'))
      await settled(page)
      await page.getByTestId('verify-confirm').click()
      expect(await page.getByTestId('verify-done').textContent()).toContain(email)
      await page.goto(account)
      await settled(page)
      await page.getByTestId('email-verified').waitFor()
      expect(await overflows(page)).toBe(false)
      await context.close()

      // Signed out, in another browser: "Forgot your password?" from the login page.
      const other = await openPage(browser, viewport, server.url)
      const otherErrors = watchUnexpectedErrors(other.page)
      await other.page.goto('/console/auth/login')
      await settled(other.page)
      await other.page.getByTestId('forgot-link').click()
      await other.page.waitForURL(/\/console\/auth\/forgot-password$/)
      await settled(other.page)
      await other.page.fill('#email', email)
      await other.page.getByRole('button', { name: 'Mail me a link' }).click()
      await other.page.getByTestId('forgot-sent').waitFor()
      expect(await overflows(other.page)).toBe(false)
      const reset = await smtp.waitFor(email, /Reset your Tessera password/)
      await other.page.goto(linkIn(reset, '/console/auth/reset-password'))
      await settled(other.page)
      await other.page.fill('#password', 'my new secret phrase')
      await other.page.fill('#repeat', 'my new secret phrase')
      await other.page.getByRole('button', { name: 'Set the new password' }).click()
      await other.page.getByTestId('reset-done').waitFor()
      expect(await overflows(other.page)).toBe(false)
      // The link works once.
      await other.page.goto(linkIn(reset, '/console/auth/reset-password'))
      await settled(other.page)
      await other.page.fill('#password', 'another new phrase!')
      await other.page.fill('#repeat', 'another new phrase!')
      await other.page.getByRole('button', { name: 'Set the new password' }).click()
      expect(await other.page.getByTestId('auth-error').textContent()).toContain(
        'unknown, used or expired',
      )
      await other.context.close()

      // The old password no longer signs in; the new one does.
      const third = await openPage(browser, viewport, server.url)
      await logIn(third.page, email, PASSWORD)
      await third.page.getByTestId('auth-error').waitFor()
      await logIn(third.page, email, 'my new secret phrase')
      await third.page.waitForURL(/\/console$/)
      await third.context.close()
      expect(errors).toEqual([])
      // The used link's refusal, provoked on purpose (the client logs each failed call, SPEC §8).
      expect(
        otherErrors.filter((e) => !/status of 404|HTTP 404 POST .*\/auth\/password\/reset/.test(e)),
      ).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'changes the password and address, signs other sessions out, and deletes the account',
    async () => {
      const email = uniqueEmail()
      const { page, context } = await openPage(browser, viewport, server.url)
      const errors = watchUnexpectedErrors(page, [
        /status of 4\d\d/,
        /HTTP 400 DELETE .*\/account /,
      ])
      await signUpAs(page, email, 'Sam')
      await page.waitForURL(/\/console$/)
      const org = await firstOrganisation(page)
      // A second browser signed in to the same account.
      const second = await openPage(browser, viewport, server.url)
      await logIn(second.page, email, PASSWORD)
      await second.page.waitForURL(/\/console$/)

      const account = `/console/organization/${org._id}/settings/account`
      await page.goto(account)
      await settled(page)
      expect(await page.getByTestId('session-row').count()).toBe(2)
      await page.fill('#current-password', PASSWORD)
      await page.fill('#new-password', 'a changed pass phrase')
      await page.fill('#repeat', 'a changed pass phrase')
      await page.getByRole('button', { name: 'Change the password' }).click()
      expect(await page.getByTestId('change-password-done').textContent()).toContain(
        '1 other session was signed out',
      )
      await page.reload()
      await settled(page)
      expect(await page.getByTestId('session-row').count()).toBe(1)
      // The other browser is signed out: its next console page sends it to log in.
      await second.page.goto('/console')
      await second.page.waitForURL(/\/console\/auth\/login/)
      await second.context.close()

      // A new address, confirmed from the mail sent to it.
      const next = uniqueEmail()
      await page.fill('#new-email', next)
      await page.fill('#email-password', 'a changed pass phrase')
      await page.getByRole('button', { name: 'Mail a confirmation link' }).click()
      await page.getByTestId('change-email-done').waitFor()
      const moved = await smtp.waitFor(next, /new Tessera e-mail/)
      await page.goto(linkIn(moved, '/console/auth/verify-email'))
      await settled(page)
      await page.getByTestId('verify-confirm').click()
      expect(await page.getByTestId('verify-done').textContent()).toContain(next)
      await page.goto(account)
      await settled(page)
      expect(await page.getByTestId('account-address').textContent()).toBe(next)
      expect(await overflows(page)).toBe(false)

      // Deleting: the typed address must match; then the account and its organisation go.
      page.on('dialog', (dialog) => void dialog.accept())
      await page.fill('#confirm-email', 'someone@else.example')
      await page.fill('#delete-password', 'a changed pass phrase')
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await page.getByTestId('delete-account-error').waitFor()
      await page.fill('#confirm-email', next)
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      const after = await openPage(browser, viewport, server.url)
      await logIn(after.page, next, 'a changed pass phrase')
      await after.page.getByTestId('auth-error').waitFor()
      await after.context.close()
      expect(errors).toEqual([])
      await context.close()
    },
    TIMEOUT,
  )

  it(
    "lets an invited viewer open Security once (no request loop) and keeps the last owner's account",
    async () => {
      const ownerEmail = uniqueEmail()
      const { page, context } = await openPage(browser, viewport, server.url)
      await signUpAs(page, ownerEmail, 'Olga')
      await page.waitForURL(/\/console$/)
      const org = await firstOrganisation(page)
      const base = `/console/organization/${org._id}/settings`

      // Invite a viewer: the invitation is mailed with its role.
      const guestEmail = uniqueEmail()
      await page.goto(`${base}/members`)
      await settled(page)
      await page.getByTestId('role-guide').waitFor()
      await page.getByTestId('invite-email').fill(guestEmail)
      await page.getByTestId('invite-role').selectOption('viewer')
      await page.getByTestId('invite-send').click()
      await page.getByTestId('invitation-url').waitFor()
      const invitation = await smtp.waitFor(guestEmail, /invited/)
      expect(invitation.text).toContain('as viewer')

      const guest = await openPage(browser, viewport, server.url)
      const guestErrors = watchUnexpectedErrors(guest.page, [/status of 403/])
      await signUpAs(guest.page, guestEmail, 'Vic')
      await guest.page.waitForURL(/\/console$/)
      await guest.page.goto(linkIn(invitation, '/console/invitations/accept'))
      await settled(guest.page)
      await guest.page.getByTestId('invitation-join').click()
      expect(await guest.page.getByTestId('invitation-joined').textContent()).toContain('as viewer')

      // The viewer's Security page: every request it makes, counted.
      const requests: string[] = []
      const count = (request: Request) => {
        if (new URL(request.url()).pathname.startsWith('/service/')) requests.push(request.url())
      }
      guest.page.on('request', count)
      await guest.page.goto(`${base}/security`)
      await settled(guest.page)
      await guest.page.getByTestId('settings-readonly').waitFor()
      await guest.page.getByTestId('signing-keys-role').waitFor()
      const loaded = requests.length
      expect(loaded).toBeLessThanOrEqual(6)
      await guest.page.waitForTimeout(3_000)
      expect(requests.slice(loaded)).toEqual([])
      expect(guest.page.url()).toContain('/settings/security')
      guest.page.off('request', count)
      expect(await overflows(guest.page)).toBe(false)

      // On the members page the viewer reads roles and changes none.
      await guest.page.goto(`${base}/members`)
      await settled(guest.page)
      expect(await guest.page.getByTestId('member-role').count()).toBe(0)
      // Presets: the viewer reads them and is offered no change (the server refuses it too).
      await guest.page.goto(`/console/organization/${org._id}/presets`)
      await settled(guest.page)
      await guest.page.getByTestId('presets-page').waitFor()
      expect(await guest.page.getByRole('button', { name: 'New preset' }).count()).toBe(0)
      expect(await guest.page.getByRole('button', { name: 'Delete' }).count()).toBe(0)
      expect(guestErrors).toEqual([])

      // The owner is the last owner of an organisation with another member: deleting is refused
      // until someone else is owner.
      await page.goto(`${base}/account`)
      await settled(page)
      await page.fill('#confirm-email', ownerEmail)
      await page.fill('#delete-password', PASSWORD)
      await page.getByRole('button', { name: 'Delete my account' }).click()
      expect(await page.getByTestId('delete-account-error').textContent()).toContain('last owner')
      // The owner makes the viewer a member from the members page.
      await page.goto(`${base}/members`)
      await settled(page)
      const guestRow = page.getByTestId('member-row').filter({ hasText: guestEmail })
      await guestRow.getByTestId('member-role').selectOption('member')
      await expect
        .poll(() => guestRow.getByTestId('member-role').inputValue(), { timeout: 20_000 })
        .toBe('member')
      await guest.context.close()
      await context.close()
    },
    TIMEOUT,
  )
})

describe('the development outbox without SMTP', () => {
  let server: WebServer
  let browser: Browser
  const operator = uniqueEmail()

  beforeAll(async () => {
    server = await startWebServer({ OPERATOR_EMAILS: operator })
    browser = await workerBrowser()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it.each<ViewportName>(['desktop', 'mobile'])(
    'shows operators the kept mail with its links at %s width, and nobody else',
    async (viewport) => {
      const { page, context } = await openPage(browser, viewport, server.url)
      if (viewport === 'desktop') {
        await signUpAs(page, operator, 'Opal')
        await page.waitForURL(/\/console$/)
      } else {
        await logIn(page, operator, PASSWORD)
        await page.waitForURL(/\/console$/)
      }
      await page.goto('/console/outbox')
      await settled(page)
      await page.getByTestId('outbox-list').waitFor()
      const first = page.getByTestId('outbox-mail').filter({ hasText: operator }).first()
      expect(await first.textContent()).toContain('/console/auth/verify-email?token=')
      expect(await overflows(page)).toBe(false)
      await context.close()

      const stranger = await openPage(browser, viewport, server.url)
      const errors = watchUnexpectedErrors(stranger.page, [
        /status of 403/,
        /HTTP 403 GET .*\/mail\/outbox/,
      ])
      await signUpAs(stranger.page, uniqueEmail(), 'Stan')
      await stranger.page.waitForURL(/\/console$/)
      await stranger.page.goto('/console/outbox')
      await settled(stranger.page)
      expect(await stranger.page.getByTestId('outbox-error').textContent()).toContain(
        'OPERATOR_EMAILS',
      )
      expect(stranger.page.url()).toContain('/console/outbox')
      expect(errors).toEqual([])
      await stranger.context.close()
    },
    TIMEOUT,
  )
})
