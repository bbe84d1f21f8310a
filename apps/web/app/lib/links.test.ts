import { describe, expect, it } from 'vitest'
import {
  appsSettingsUrl,
  authParams,
  billingUrl,
  consoleUrl,
  crossSellUrl,
  headerSignupUrl,
  loginUrl,
  playgroundUrl,
  signupToBuyUrl,
  signupUrl,
} from './links.ts'

const at = (path: string) => {
  const url = new URL(path, 'https://www.example.com')
  return { pathname: url.pathname, search: url.search, href: url.href }
}

describe('login URL construction (SPEC §2.3)', () => {
  it('comes back to the app on an AI tool page', () => {
    expect(authParams(at('/ai-tools/background-remover'))).toEqual({
      redirectTo: '/apps/background-remover',
    })
  })

  it('uses an isolated flow back to the API page on /api pages', () => {
    expect(authParams(at('/api'))).toEqual({ isolateFlow: 'true', redirectTo: '/api' })
    expect(authParams(at('/api/plugin?plugin=erase'))).toEqual({
      isolateFlow: 'true',
      redirectTo: '/api/plugin?plugin=erase',
    })
  })

  it('carries the current URL anywhere else', () => {
    expect(authParams(at('/pricing?interval=yearly'))).toEqual({
      redirectUrl: 'https://www.example.com/pricing?interval=yearly',
    })
  })

  it('builds login and sign-up URLs on the console base', () => {
    expect(loginUrl('/console', at('/ai-tools/x'))).toBe(
      '/console/auth/login?redirectTo=%2Fapps%2Fx',
    )
    expect(signupUrl('https://console.example.com', at('/api'))).toBe(
      'https://console.example.com/auth/signup?isolateFlow=true&redirectTo=%2Fapi',
    )
  })
})

describe("the header's sign-up (issue 24)", () => {
  it('lands in the console from a marketing page, and keeps the tool and API flows', () => {
    expect(headerSignupUrl('/console', at('/features'))).toBe('/console/auth/signup')
    expect(headerSignupUrl('/console', at('/'))).toBe('/console/auth/signup')
    expect(headerSignupUrl('/console', at('/ai-tools/background-remover'))).toBe(
      '/console/auth/signup?redirectTo=%2Fapps%2Fbackground-remover',
    )
    expect(headerSignupUrl('/console', at('/api'))).toBe(
      '/console/auth/signup?isolateFlow=true&redirectTo=%2Fapi',
    )
  })
})

describe('console links (SPEC §2.2)', () => {
  it('joins the base and the path', () => {
    expect(consoleUrl('/console', '/')).toBe('/console')
    expect(consoleUrl('https://console.example.com', '/')).toBe('https://console.example.com')
    expect(consoleUrl('/console/', '/editor/upload')).toBe('/console/editor/upload')
  })

  it('sends buy-subscription and buy-topup through the chooser with redirectUrl', () => {
    expect(billingUrl('/console', 'org1', 'subscription')).toBe(
      '/console/choose-org?redirectUrl=organization%2Forg1%2Fbilling%2Fplans%2Fsubscription',
    )
    expect(billingUrl('/console', 'org1', 'topup')).toContain('plans%2Ftopup')
  })

  it('keeps the plan or addon chosen on the pricing page, for members and visitors', () => {
    expect(billingUrl('/console', 'org1', 'subscription', 2)).toBe(
      '/console/choose-org?redirectUrl=organization%2Forg1%2Fbilling%2Fplans%2Fsubscription%3FplanId%3D2',
    )
    expect(signupToBuyUrl('/console', 'topup', 101)).toBe(
      '/console/auth/signup?redirectTo=billing%2Fplans%2Ftopup%3FaddonId%3D101',
    )
  })

  it('sends apps settings through the chooser with redirectTo', () => {
    expect(appsSettingsUrl('/console')).toBe('/console/choose-org?redirectTo=settings%2Fapps')
  })

  it("links the organisation's playground, or the chooser when no organisation is known", () => {
    expect(playgroundUrl('/console', 'o1')).toBe('/console/organization/o1/playground')
    expect(playgroundUrl('/console')).toBe('/console/choose-org?redirectTo=playground')
  })
})

describe('cross-sell links (SPEC §1)', () => {
  it('adds utm_source, utm_campaign=cross-sell and ref', () => {
    const url = new URL(
      crossSellUrl('https://erase.example.com/app', { source: 'tessera', ref: 'home' }),
    )
    expect(url.searchParams.get('utm_source')).toBe('tessera')
    expect(url.searchParams.get('utm_campaign')).toBe('cross-sell')
    expect(url.searchParams.get('ref')).toBe('home')
    expect(url.pathname).toBe('/app')
  })

  it('prefixes the path with the locale for languages other than English', () => {
    expect(
      crossSellUrl('https://x.example.com/app', { source: 's', ref: 'r', locale: 'de' }),
    ).toMatch(/^https:\/\/x\.example\.com\/de\/app\?/)
    expect(
      crossSellUrl('https://x.example.com/app', { source: 's', ref: 'r', locale: 'en-US' }),
    ).toMatch(/^https:\/\/x\.example\.com\/app\?/)
  })

  it('keeps relative tool links relative', () => {
    expect(crossSellUrl('/ai-tools/image-upscaler', { source: 's', ref: 'r' })).toBe(
      '/ai-tools/image-upscaler?utm_source=s&utm_campaign=cross-sell&ref=r',
    )
  })
})
