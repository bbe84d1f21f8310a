// What every signed-in console page shares: the user, their organisations, the one being worked
// in, and its calls. The app layout's loader decides the organisation; pages read it here.
import { createContext, useContext, useMemo } from 'react'
import type { Organization } from '../../lib/api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { type ConsoleApi, consoleApi } from '../../lib/console-api.ts'
import type { SessionUser } from '../../lib/session.ts'

export interface ConsoleValue {
  user: SessionUser
  organizations: Organization[]
  org: Organization
  api: ConsoleApi
}

const ConsoleContext = createContext<ConsoleValue | null>(null)

export function ConsoleProvider({
  user,
  organizations,
  org,
  children,
}: {
  user: SessionUser
  organizations: Organization[]
  org: Organization
  children: React.ReactNode
}) {
  const config = useConfig()
  const session = useSession()
  const api = useMemo(() => consoleApi(session.client, config, org._id), [session, config, org])
  const value = useMemo(() => ({ user, organizations, org, api }), [user, organizations, org, api])
  return <ConsoleContext.Provider value={value}>{children}</ConsoleContext.Provider>
}

export function useConsole(): ConsoleValue {
  const value = useContext(ConsoleContext)
  if (value === null) throw new Error('useConsole outside of the console layout')
  return value
}

/**
 * Whether the caller's role owns the organisation (buys, sees receipts, manages owners and
 * webhooks); a session that names no role is its creator's (docs/web.md, "Roles").
 */
export function ownsOrg(role: string | undefined): boolean {
  return role === undefined || role === 'owner'
}

/** Whether the caller's role manages the organisation's settings and keys (owners, admins). */
export function managesSettings(role: string | undefined): boolean {
  return ownsOrg(role) || role === 'admin'
}
