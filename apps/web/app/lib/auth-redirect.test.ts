import { describe, expect, it } from 'vitest'
import { afterChoosingOrg, postAuthTarget, readAuthFlow } from './auth-redirect.ts'

const options = { consoleBase: '/console', allowedOrigins: ['https://www.example.com'] }
const flow = (search: string) => readAuthFlow(search)

describe('after login or sign-up', () => {
  it('goes to the console home without parameters', () => {
    expect(postAuthTarget(flow(''), options)).toBe('/console')
  })

  it('follows redirectUrl on the site', () => {
    expect(postAuthTarget(flow('?redirectUrl=https://www.example.com/pricing'), options)).toBe(
      'https://www.example.com/pricing',
    )
  })

  it('never follows redirectUrl to another site', () => {
    expect(postAuthTarget(flow('?redirectUrl=https://evil.example.net/x'), options)).toBe(
      '/console',
    )
    expect(postAuthTarget(flow('?redirectUrl=//evil.example.net/x'), options)).toBe('/console')
    expect(postAuthTarget(flow('?redirectUrl=javascript:alert(1)'), options)).toBe('/console')
  })

  it('treats a relative redirectUrl as a console path', () => {
    expect(postAuthTarget(flow('?redirectUrl=organization/o1/billing'), options)).toBe(
      '/console/organization/o1/billing',
    )
  })

  it('follows a site path in redirectTo (AI tools and API pages)', () => {
    expect(postAuthTarget(flow('?redirectTo=/apps/x'), options)).toBe('/apps/x')
    expect(postAuthTarget(flow('?isolateFlow=true&redirectTo=/api/plugin?plugin=t'), options)).toBe(
      '/api/plugin?plugin=t',
    )
    expect(postAuthTarget(flow('?redirectTo=//evil.example.net'), options)).toBe('/console')
  })

  it('goes through the organisation chooser for a console path in redirectTo', () => {
    expect(postAuthTarget(flow('?redirectTo=settings/apps'), options)).toBe(
      '/console/choose-org?redirectTo=settings%2Fapps',
    )
  })
})

describe('after choosing an organisation', () => {
  it('opens redirectUrl in the console', () => {
    expect(
      afterChoosingOrg(flow('?redirectUrl=organization/o1/billing/plans/topup'), 'o1', options),
    ).toBe('/console/organization/o1/billing/plans/topup')
  })

  it('opens redirectTo under the chosen organisation', () => {
    expect(afterChoosingOrg(flow('?redirectTo=settings/apps'), 'o 1', options)).toBe(
      '/console/organization/o%201/settings/apps',
    )
  })

  it('opens the console home otherwise', () => {
    expect(afterChoosingOrg(flow(''), 'o1', options)).toBe('/console')
  })
})
