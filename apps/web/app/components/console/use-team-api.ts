// The team calls (domains, activity, usage over time) for the organisation being worked in.
import { useMemo } from 'react'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { type TeamApi, teamApi } from '../../lib/team-api.ts'
import { useConsole } from './console-context.tsx'

export function useTeamApi(): TeamApi {
  const config = useConfig()
  const session = useSession()
  const { org } = useConsole()
  return useMemo(() => teamApi(session.client, config, org._id), [session, config, org])
}
