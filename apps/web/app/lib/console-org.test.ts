import { describe, expect, it } from 'vitest'
import { orgCookie, pickOrganization, readCookie, switchOrgPath } from './console-org.ts'

const orgs = [{ _id: 'o1' }, { _id: 'o2' }]

describe('the organisation the console works in', () => {
  it('takes the one in the path, and only if it is the user’s', () => {
    expect(pickOrganization(orgs, 'o2', 'o1')?._id).toBe('o2')
    expect(pickOrganization(orgs, 'other', 'o1')).toBeUndefined()
  })

  it('otherwise the one last picked, else the first (SPEC §6)', () => {
    expect(pickOrganization(orgs, undefined, 'o2')?._id).toBe('o2')
    expect(pickOrganization(orgs, undefined, 'gone')?._id).toBe('o1')
    expect(pickOrganization(orgs, undefined, undefined)?._id).toBe('o1')
    expect(pickOrganization([], undefined, 'o1')).toBeUndefined()
  })

  it('reads and writes the cookie', () => {
    expect(readCookie('a=1; tessera_org=o%2F2; b=2', 'tessera_org')).toBe('o/2')
    expect(readCookie('tessera_org=%E0%A4%A', 'tessera_org')).toBeUndefined()
    expect(readCookie(null, 'tessera_org')).toBeUndefined()
    expect(orgCookie('o2')).toBe('tessera_org=o2; Path=/; Max-Age=31536000; SameSite=Lax')
  })

  it('shows the same page for another organisation', () => {
    expect(switchOrgPath('/console/organization/o1/billing/plans/topup', '?x=1', 'o2')).toBe(
      '/console/organization/o2/billing/plans/topup',
    )
    expect(switchOrgPath('/console/editor', '?path=a', 'o2')).toBe('/console/editor?path=a')
  })
})
