// Header state of SPEC §4: the mobile menu, the open dropdown and the scrolled (blurred) look.
import { HEADER_BLUR_SCROLL_THRESHOLD } from './tokens.ts'

export interface HeaderState {
  menuOpen: boolean
  /** Identifier of the open dropdown, or null. */
  openDropdown: string | null
  scrolled: boolean
}

export type HeaderAction =
  | { type: 'menu_toggled' }
  | { type: 'menu_closed' }
  | { type: 'route_changed' }
  | { type: 'dropdown_toggled'; id: string }
  | { type: 'dropdown_opened'; id: string }
  | { type: 'dropdowns_closed' }
  | { type: 'scrolled'; y: number }

export const INITIAL_HEADER: HeaderState = { menuOpen: false, openDropdown: null, scrolled: false }

export function headerReducer(state: HeaderState, action: HeaderAction): HeaderState {
  switch (action.type) {
    case 'menu_toggled':
      return { ...state, menuOpen: !state.menuOpen, openDropdown: null }
    case 'menu_closed':
      return state.menuOpen ? { ...state, menuOpen: false } : state
    case 'route_changed':
      return { ...state, menuOpen: false, openDropdown: null }
    case 'dropdown_toggled':
      return { ...state, openDropdown: state.openDropdown === action.id ? null : action.id }
    case 'dropdown_opened':
      return state.openDropdown === action.id ? state : { ...state, openDropdown: action.id }
    case 'dropdowns_closed':
      return state.openDropdown === null ? state : { ...state, openDropdown: null }
    case 'scrolled': {
      const scrolled = action.y > HEADER_BLUR_SCROLL_THRESHOLD
      // Scrolling also closes an open dropdown (SPEC §4).
      if (scrolled === state.scrolled && state.openDropdown === null) return state
      return { ...state, scrolled, openDropdown: null }
    }
  }
}

/** Footer accordions on narrow screens: one open at a time (SPEC §2.6). */
export function accordionReducer(open: string | null, id: string): string | null {
  return open === id ? null : id
}
