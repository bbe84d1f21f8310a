import type { ReactNode } from 'react'
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
    ['account', 'Your account'],
    ['webhooks', 'Webhooks'],
    ['domains', 'Domains'],
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

/** The frame every settings page shares: the panel, the settings tabs and the page's title. */
export function SettingsPage({
  testId,
  title,
  children,
}: {
  testId: string
  title: string
  children: ReactNode
}) {
  return (
    <div className="console-panel is-wide" data-testid={testId}>
      <SettingsNav />
      <h1>{title}</h1>
      {children}
    </div>
  )
}

/** A secret shown once (a token, a signing key, an invitation link), with what to do with it. */
export function SecretBox({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div className="form-alert is-success secret-box" role="status" data-testid={testId}>
      {children}
    </div>
  )
}
