// The account calls (decision 019) for the signed-in settings and the signed-out account pages.
import { useMemo } from 'react'
import { accountApi } from '../../lib/account-api.ts'
import { useConfig, useSession } from '../../lib/app-context.tsx'

/** The account calls, signed by this browser's session. */
export function useAccountApi(): ReturnType<typeof accountApi> {
  const config = useConfig()
  const session = useSession()
  return useMemo(() => accountApi(session.client, config), [session, config])
}
