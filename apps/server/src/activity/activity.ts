// The activity log (issue 24, item 5): who did what to an organisation, and when. Features call
// `record` after a change has succeeded; a log that cannot be written is logged and never fails
// the change it describes (the change already happened). Read with filters by member, kind,
// text and time; kept for ACTIVITY_RETENTION_DAYS (housekeeping's `activity` task).
import type { Caller } from '../accounts/auth.ts'
import type { AppContext } from '../context.ts'

/** Every kind of entry, by family (`file.*`, …): what the console's filter offers. */
export const ACTIVITY_KINDS = [
  'file.upload',
  'file.delete',
  'file.move',
  'file.update',
  'folder.create',
  'folder.delete',
  'folder.move',
  'preset.create',
  'preset.update',
  'preset.delete',
  'organisation.update',
  'settings.update',
  'member.invite',
  'member.join',
  'member.role',
  'member.remove',
  'invitation.revoke',
  'token.create',
  'token.revoke',
  'signing-key.create',
  'signing-key.revoke',
  'payment.checkout',
  'payment.settled',
  'domain.add',
  'domain.check',
  'domain.remove',
] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]

/** The families the log's kind filter also takes (`file` for every `file.*`). */
export const ACTIVITY_FAMILIES: string[] = [
  ...new Set(ACTIVITY_KINDS.map((kind) => kind.slice(0, kind.indexOf('.')))),
]

/** Who acted: a member (their e-mail), an API token (its prefix) or the server itself. */
export interface Actor {
  userId: string | null
  label: string
}

export const SYSTEM_ACTOR: Actor = { userId: null, label: 'system' }

/** The actor of a call. */
export function actorOf(caller: Pick<Caller, 'user' | 'role'>): Actor {
  if (caller.user !== undefined) return { userId: caller.user.id, label: caller.user.email }
  return { userId: null, label: 'API token' }
}

export interface ActivityEvent {
  kind: ActivityKind
  /** What it was done to: a path, a preset's name, an e-mail, a domain. */
  target?: string
  details?: Record<string, unknown>
}

export type ActivityLog = ReturnType<typeof createActivityLog>

/** The log features write to. */
export function createActivityLog(app: Pick<AppContext, 'repo' | 'logger' | 'config'>) {
  const { repo, logger } = app

  /** Records what `actor` did to the organisation; never throws. */
  async function record(organisationId: string, actor: Actor, event: ActivityEvent) {
    try {
      await repo.recordActivity({
        organisationId,
        actorUserId: actor.userId,
        actor: actor.label,
        kind: event.kind,
        target: (event.target ?? '').slice(0, 1000),
        details: event.details ?? {},
      })
    } catch (error) {
      logger.warn({ err: error, organisationId, kind: event.kind }, 'activity not recorded')
    }
  }

  /** The housekeeping task: entries older than the retention go. */
  function prune(): Promise<number> {
    const days = app.config.retention.activityDays
    return repo.pruneActivity(new Date(Date.now() - days * 86_400_000))
  }

  return { record, prune }
}
