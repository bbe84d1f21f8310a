import { describe, expect, it } from 'vitest'
import { accordionReducer, headerReducer, INITIAL_HEADER } from './header-state.ts'
import { HEADER_BLUR_SCROLL_THRESHOLD } from './tokens.ts'

describe('header state (SPEC §4)', () => {
  it('opens and closes the mobile menu with the hamburger', () => {
    const open = headerReducer(INITIAL_HEADER, { type: 'menu_toggled' })
    expect(open.menuOpen).toBe(true)
    expect(headerReducer(open, { type: 'menu_toggled' }).menuOpen).toBe(false)
  })

  it('closes the menu and any dropdown on a route change', () => {
    const state = { menuOpen: true, openDropdown: 'ai-tools', scrolled: false }
    expect(headerReducer(state, { type: 'route_changed' })).toEqual({
      menuOpen: false,
      openDropdown: null,
      scrolled: false,
    })
  })

  it('toggles a dropdown on click and switches between dropdowns', () => {
    const one = headerReducer(INITIAL_HEADER, { type: 'dropdown_toggled', id: 'ai-tools' })
    expect(one.openDropdown).toBe('ai-tools')
    const other = headerReducer(one, { type: 'dropdown_toggled', id: 'developers' })
    expect(other.openDropdown).toBe('developers')
    expect(headerReducer(other, { type: 'dropdown_toggled', id: 'developers' }).openDropdown).toBe(
      null,
    )
  })

  it('closes dropdowns on outside click and on scroll', () => {
    const open = headerReducer(INITIAL_HEADER, { type: 'dropdown_opened', id: 'ai-tools' })
    expect(headerReducer(open, { type: 'dropdowns_closed' }).openDropdown).toBe(null)
    expect(headerReducer(open, { type: 'scrolled', y: 1 }).openDropdown).toBe(null)
  })

  it('blurs the background once scrolled past the threshold', () => {
    expect(
      headerReducer(INITIAL_HEADER, { type: 'scrolled', y: HEADER_BLUR_SCROLL_THRESHOLD }).scrolled,
    ).toBe(false)
    expect(
      headerReducer(INITIAL_HEADER, { type: 'scrolled', y: HEADER_BLUR_SCROLL_THRESHOLD + 1 })
        .scrolled,
    ).toBe(true)
  })

  it('returns the same state when nothing changes (no re-render on every scroll event)', () => {
    expect(headerReducer(INITIAL_HEADER, { type: 'scrolled', y: 0 })).toBe(INITIAL_HEADER)
  })
})

describe('footer accordions (SPEC §2.6)', () => {
  it('keeps one open at a time', () => {
    const first = accordionReducer(null, 'products')
    expect(first).toBe('products')
    expect(accordionReducer(first, 'company')).toBe('company')
    expect(accordionReducer('company', 'company')).toBe(null)
  })
})
