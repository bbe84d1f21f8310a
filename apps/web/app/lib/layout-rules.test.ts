import { describe, expect, it } from 'vitest'
import { hasTopPadding, isFooterHidden, isHeaderHidden, readHideInApp } from './layout-rules.ts'

describe('layout rules (SPEC §2.4)', () => {
  it('hides the header on playground paths and with hideInApp', () => {
    expect(isHeaderHidden('/playground', false)).toBe(true)
    expect(isHeaderHidden('/playground/anything', false)).toBe(true)
    expect(isHeaderHidden('/pricing', true)).toBe(true)
    expect(isHeaderHidden('/pricing', false)).toBe(false)
    expect(isHeaderHidden('/playgrounds', false)).toBe(false)
  })

  it('hides the footer on /playground and with hideInApp', () => {
    expect(isFooterHidden('/playground', false)).toBe(true)
    expect(isFooterHidden('/', true)).toBe(true)
    expect(isFooterHidden('/', false)).toBe(false)
  })

  it('removes the top padding on /pricing, /ai-tools*, /apps*, /api* and with hideInApp', () => {
    for (const path of ['/pricing', '/ai-tools', '/ai-tools/x', '/apps/x', '/api', '/api/plugin']) {
      expect(hasTopPadding(path, false), path).toBe(false)
    }
    for (const path of ['/', '/products', '/faqs', '/contactus']) {
      expect(hasTopPadding(path, false), path).toBe(true)
    }
    expect(hasTopPadding('/', true)).toBe(false)
  })

  it('reads hideInApp only when it is exactly true', () => {
    expect(readHideInApp('?hideInApp=true')).toBe(true)
    expect(readHideInApp('?hideInApp=1')).toBe(false)
    expect(readHideInApp('')).toBe(false)
  })
})
