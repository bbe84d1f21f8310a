// Site header (SPEC §2.5, §3, §4).
import { useEffect, useReducer, useRef } from 'react'
import { useLocation } from 'react-router'
import { logout } from '../lib/api.ts'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { headerReducer, INITIAL_HEADER } from '../lib/header-state.ts'
import { CONSOLE_PATHS, consoleUrl, headerSignupUrl, loginUrl } from '../lib/links.ts'
import { headerNav, type NavItem } from '../lib/nav.ts'
import { initialOf } from '../lib/session.ts'
import { ChevronDown, CloseIcon, Logo, MenuIcon } from './icons.tsx'
import { SmartLink } from './nav-link.tsx'
import { usePageLocation } from './use-page-location.ts'
import './header.css'

export function Header() {
  const config = useConfig()
  const session = useSession()
  const page = usePageLocation()
  const location = useLocation()
  const [state, dispatch] = useReducer(headerReducer, INITIAL_HEADER)
  const headerRef = useRef<HTMLElement>(null)
  // With a mouse, hovering opens a dropdown, so a click only keeps it open; touch and keyboard
  // clicks toggle it. (The pointer type, not the hover media query: headless and some hybrid
  // devices report no hover for a real mouse.)
  const mouseDown = useRef(false)
  const nav = headerNav(config)

  // Closes the sidebar and dropdowns on every route change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname change is the trigger
  useEffect(() => {
    dispatch({ type: 'route_changed' })
  }, [location.pathname])

  useEffect(() => {
    const onScroll = () => dispatch({ type: 'scrolled', y: window.scrollY })
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  useEffect(() => {
    if (state.openDropdown === null) return
    const onDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) dispatch({ type: 'dropdowns_closed' })
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dispatch({ type: 'dropdowns_closed' })
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [state.openDropdown])

  // The open sidebar locks page scrolling.
  useEffect(() => {
    document.body.classList.toggle('is-scroll-locked', state.menuOpen)
    return () => document.body.classList.remove('is-scroll-locked')
  }, [state.menuOpen])

  const login = loginUrl(config.consoleUrl, page)
  const signup = headerSignupUrl(config.consoleUrl, page)
  const dashboard = consoleUrl(config.consoleUrl, CONSOLE_PATHS.root)

  const signOut = async () => {
    try {
      await logout(session.client, config)
    } finally {
      await session.refresh()
    }
  }

  const renderItem = (item: NavItem) => {
    if (!item.dropDown) {
      return (
        <li key={item.identifier} className="site-nav-item">
          <SmartLink
            href={item.route}
            className="site-nav-link"
            sameTab={item.dontOpenInNewTab}
            data-testid={`nav-${item.identifier}`}
          >
            {item.display}
          </SmartLink>
        </li>
      )
    }
    const open = state.openDropdown === item.identifier
    return (
      <li
        key={item.identifier}
        className={`site-nav-item has-dropdown${open ? ' is-open' : ''}`}
        onPointerEnter={(event) => {
          if (event.pointerType === 'mouse')
            dispatch({ type: 'dropdown_opened', id: item.identifier })
        }}
        onPointerLeave={(event) => {
          if (event.pointerType === 'mouse') dispatch({ type: 'dropdowns_closed' })
        }}
      >
        <button
          type="button"
          className="site-nav-link"
          aria-expanded={open}
          aria-controls={`dropdown-${item.identifier}`}
          data-testid={`nav-${item.identifier}`}
          onPointerDown={(event) => {
            mouseDown.current = event.pointerType === 'mouse'
          }}
          onClick={() => {
            const byMouse = mouseDown.current
            mouseDown.current = false
            dispatch({
              type: byMouse ? 'dropdown_opened' : 'dropdown_toggled',
              id: item.identifier,
            })
          }}
        >
          {item.display}
          <ChevronDown size={16} />
        </button>
        <ul className="site-dropdown" id={`dropdown-${item.identifier}`} hidden={!open}>
          {item.DropDownRoutes.map((child) => (
            <li key={child.identifier}>
              <SmartLink
                href={child.route}
                sameTab
                className="site-dropdown-link bare-button"
                onClick={() => dispatch({ type: 'dropdowns_closed' })}
              >
                {child.display}
              </SmartLink>
            </li>
          ))}
        </ul>
      </li>
    )
  }

  const firstName = session.user?.firstName ?? ''
  const account = session.loading ? (
    <div className="site-header-loader" role="status" data-testid="session-loader">
      <span className="spinner" />
      <span className="visually-hidden">Checking your session</span>
    </div>
  ) : session.isUserLoggedIn ? (
    <div
      className={`site-nav-item has-dropdown profile${state.openDropdown === 'profile' ? ' is-open' : ''}`}
    >
      <button
        type="button"
        className="profile-button"
        aria-expanded={state.openDropdown === 'profile'}
        aria-controls="dropdown-profile"
        data-testid="profile-button"
        onClick={() => dispatch({ type: 'dropdown_toggled', id: 'profile' })}
      >
        <span className="profile-initial" aria-hidden="true">
          {initialOf(session.user)}
        </span>
        <span className="profile-name" data-testid="profile-name">
          Hi, {firstName}
        </span>
        <ChevronDown size={16} />
      </button>
      <ul
        className="site-dropdown is-right"
        id="dropdown-profile"
        hidden={state.openDropdown !== 'profile'}
      >
        <li>
          <a className="site-dropdown-link bare-button" href={dashboard}>
            Go to Dashboard
          </a>
        </li>
        <li>
          <button type="button" className="site-dropdown-link bare-button" onClick={signOut}>
            Log out
          </button>
        </li>
      </ul>
    </div>
  ) : (
    <>
      <a className="button is-ghost is-small" href={login} data-testid="login-link">
        Login
      </a>
      <a className="button is-primary is-small" href={signup} data-testid="signup-link">
        Sign up
      </a>
    </>
  )

  return (
    <header
      ref={headerRef}
      className={`site-header${state.scrolled ? ' is-scrolled' : ''}${state.menuOpen ? ' is-menu-open' : ''}`}
      data-testid="site-header"
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="site-header-inner">
        <SmartLink href="/" className="site-logo" aria-label="Tessera home">
          <Logo />
          <span>Tessera</span>
        </SmartLink>
        <nav className="site-nav" aria-label="Main">
          <ul className="site-nav-list">{nav.map(renderItem)}</ul>
        </nav>
        <div className="site-header-actions">
          <a
            className="button is-secondary is-small book-demo"
            href={config.schedulerUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="book-demo"
          >
            Book a Demo
          </a>
          <div className="site-account">{account}</div>
          <button
            type="button"
            className="hamburger"
            aria-label={state.menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={state.menuOpen}
            aria-controls="site-sidebar"
            data-testid="hamburger"
            onClick={() => dispatch({ type: 'menu_toggled' })}
          >
            {state.menuOpen ? <CloseIcon size={24} /> : <MenuIcon size={24} />}
          </button>
        </div>
      </div>
      <div
        className="site-sidebar-backdrop"
        hidden={!state.menuOpen}
        onClick={() => dispatch({ type: 'menu_closed' })}
        aria-hidden="true"
      />
      <aside
        id="site-sidebar"
        className="site-sidebar"
        hidden={!state.menuOpen}
        aria-label="Menu"
        data-testid="sidebar"
      >
        <ul className="sidebar-list">
          {nav.map((item) =>
            item.dropDown ? (
              <li key={item.identifier} className="sidebar-group">
                <span className="sidebar-group-title">{item.display}</span>
                <ul>
                  {item.DropDownRoutes.map((child) => (
                    <li key={child.identifier}>
                      <SmartLink href={child.route} sameTab className="sidebar-link">
                        {child.display}
                      </SmartLink>
                    </li>
                  ))}
                </ul>
              </li>
            ) : (
              <li key={item.identifier}>
                <SmartLink href={item.route} sameTab className="sidebar-link is-strong">
                  {item.display}
                </SmartLink>
              </li>
            ),
          )}
        </ul>
        <div className="sidebar-actions">
          {session.isUserLoggedIn ? null : (
            <>
              <a className="button is-secondary is-block" href={login}>
                Login
              </a>
              <a className="button is-primary is-block" href={signup}>
                Sign up
              </a>
            </>
          )}
          <a
            className="button is-secondary is-block"
            href={dashboard}
            data-testid="sidebar-dashboard"
          >
            Go to Dashboard
          </a>
          <a
            className="button is-ghost is-block"
            href={config.schedulerUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            Book a Demo
          </a>
        </div>
      </aside>
    </header>
  )
}
