// The declared call of the activity log (issue 24).
import { z } from 'zod'
import { OF_OWNERS } from '../accounts/openapi-answers.ts'
import { type ApiPart, dateTime, json, orgCalls, ref } from '../http/openapi-kit.ts'
import { ACTIVITY_BASE } from './paths.ts'
import { activityQuery } from './requests.ts'

export const ACTIVITY_API: ApiPart = {
  tags: [
    {
      name: 'activity',
      description:
        'Who did what to the organisation and when: uploads, deletes, moves, presets, settings, members, tokens, signing keys, domains and payments; kept ACTIVITY_RETENTION_DAYS',
    },
  ],
  schemas: {
    ActivityEntry: z.object({
      _id: z.string(),
      kind: z.string().describe('file.upload, preset.update, member.invite, …'),
      actor: z.string().describe('The member’s e-mail, API token, or system'),
      actorUserId: z.string().nullable(),
      target: z.string().describe('What it was done to: a path, a preset, an e-mail, a domain'),
      details: z.record(z.string(), z.unknown()),
      createdAt: dateTime,
    }),
  },
  routes: [
    orgCalls(ACTIVITY_BASE, 'activity').get('/activity', 'listActivity', 'admin', {
      summary: 'The activity log, newest first, with filters (owners)',
      query: activityQuery,
      responses: {
        '200': json(
          z.object({
            items: z.array(ref('ActivityEntry')),
            page: ref('Page'),
            kinds: z.array(z.string()),
          }),
          'One page of entries, and the kinds the log knows',
        ),
        ...OF_OWNERS,
      },
    }),
  ],
}
