import { NavLink } from 'react-router'
import { useConsole } from './console-context.tsx'

/** The settings pages, as tabs. */
export function SettingsNav() {
  const { org } = useConsole()
  const base = `/console/organization/${encodeURIComponent(org._id)}/settings`
  const tabs: [string, string][] = [
    ['organization', 'Organisation'],
    ['security', 'Security'],
    ['members', 'Members'],
    ['apps', 'API tokens'],
  ]
  return (
    <>
      <p className="eyebrow">Settings</p>
      <nav className="tabs" aria-label="Settings">
        {tabs.map(([path, label]) => (
          <NavLink
            key={path}
            to={`${base}/${path}`}
            className={({ isActive }) => (isActive ? 'is-active' : undefined)}
          >
            {label}
          </NavLink>
        ))}
      </nav>
    </>
  )
}
