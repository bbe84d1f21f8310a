// Starting and ending sessions, shared by sign-in (identity-routes.ts) and account recovery
// (account-routes.ts): the cookie, rotation, the browser's name for the session list, and
// forgetting in every process before the call answers.
import type { Context } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import type { User } from '../db/index.ts'
import { cookieToken, randomToken, SESSION_TTL_SECONDS, sessionCookie, sha256 } from './auth.ts'

export type SessionControl = ReturnType<typeof createSessionControl>

export function createSessionControl(app: Pick<AppContext, 'repo' | 'config' | 'sessions'>) {
  const { repo, config, sessions } = app

  /** Deletes a session and forgets it in every process before the call answers. */
  const endSession = async (token: string) => {
    const id = sha256(token)
    await repo.deleteSession(id)
    await sessions.forgetSession(id)
  }

  /** Starts a session (ending the one the request carried: rotation) and sets its cookie. */
  const startSession = async (c: Context<AppEnv>, user: User) => {
    const previous = cookieToken(c)
    if (previous !== undefined) await endSession(previous)
    const token = randomToken()
    const agent = c.req.header('user-agent')?.slice(0, 200) ?? null
    await repo.createSession(
      sha256(token),
      user.id,
      new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      agent,
    )
    c.header('set-cookie', sessionCookie(c, config.publicUrl, token, SESSION_TTL_SECONDS))
    c.header('cache-control', 'no-store')
  }

  /** Ends every session of the user but the request's own (when `keepCurrent`). */
  const endOtherSessions = async (c: Context<AppEnv>, userId: string, keepCurrent: boolean) => {
    const current = cookieToken(c)
    const keep = keepCurrent && current !== undefined ? sha256(current) : undefined
    const ended = await repo.deleteOtherSessions(userId, keep)
    await sessions.forgetUser(userId)
    return ended.length
  }

  return { startSession, endSession, endOtherSessions }
}
