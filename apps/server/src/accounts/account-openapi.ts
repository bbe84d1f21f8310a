// The declared calls of account recovery and settings (decision 019): forgot and reset password,
// e-mail verification and change, change password, own sessions, deleting the account and the
// operators' development outbox. Part of the identity part (`identity-openapi.ts`).
import { z } from 'zod'
import {
  calls,
  dateTime,
  failure,
  JSON_BODY_ERRORS,
  type RouteDeclaration,
  ref,
  uuidParam,
} from '../http/openapi-kit.ts'
import { CONFIRM_LIMITS, RECOVERY_LIMITS, RESET_TTL_MS } from './identity.ts'
import { USERS } from './paths.ts'
import {
  changeEmailBody,
  changePasswordBody,
  deleteAccountBody,
  forgotBody,
  resetBody,
  verifyBody,
} from './requests.ts'

const message = z.object({ message: z.string() })
const tooMany = (what: string) => ({
  description: `too_many_requests: ${what}`,
  schema: ref('Error'),
  headers: { 'Retry-After': { description: 'Seconds', schema: z.int() } },
})
const recoveryLimit = tooMany(
  `${RECOVERY_LIMITS.perEmail} mails per address and ${RECOVERY_LIMITS.perAddress} per client in ${RECOVERY_LIMITS.windowMs / 60_000} min`,
)
const confirmLimit = tooMany(
  `${CONFIRM_LIMITS.perUser} wrong current passwords in ${CONFIRM_LIMITS.windowMs / 60_000} min`,
)
const unauthenticated = failure('unauthenticated')
const account = calls(USERS, 'account')

export const ACCOUNT_SCHEMAS = {
  OwnSession: z.object({
    _id: z.string().describe('The session (sha256 of its cookie token)'),
    current: z.boolean().describe('The session of this request'),
    userAgent: z.string().nullable(),
    createdAt: dateTime,
    lastSeenAt: dateTime,
    expiresAt: dateTime,
  }),
}

export const ACCOUNT_ROUTES: RouteDeclaration[] = [
  account.post('/auth/password/forgot', 'forgotPassword', {
    summary: 'Mail a password-reset link; the same answer whether the address has an account',
    description: `The link works once, for ${RESET_TTL_MS / 60_000} minutes.`,
    body: { schema: forgotBody },
    responses: {
      '202': {
        description: 'Asked (a mail goes out if an account uses the address)',
        schema: message,
      },
      ...JSON_BODY_ERRORS,
      '429': recoveryLimit,
    },
  }),
  account.post('/auth/password/reset', 'resetPassword', {
    summary: 'Set a new password with a mailed token; ends every session and signs in',
    body: { schema: resetBody },
    responses: {
      '200': { description: 'Changed and signed in', schema: ref('UserAnswer') },
      ...JSON_BODY_ERRORS,
      '404': failure('invalid_token: unknown, used or expired'),
    },
  }),
  account.post('/auth/email/verify', 'verifyEmail', {
    summary: 'Confirm an address with a mailed token (the sign-up address, or a new one)',
    body: { schema: verifyBody },
    responses: {
      '200': { description: 'Confirmed (and moved, for a new address)', schema: ref('UserAnswer') },
      ...JSON_BODY_ERRORS,
      '404': failure('invalid_token: unknown, used or expired'),
      '409': failure('email_taken: another account took the new address meanwhile'),
    },
  }),
  account.post('/account/email/verification', 'resendVerification', {
    summary: 'Mail the confirmation link of the current address again',
    responses: {
      '202': { description: 'Sent', schema: message },
      '401': unauthenticated,
      '409': failure('already_verified'),
      '429': recoveryLimit,
    },
  }),
  account.post('/account/email', 'changeEmail', {
    summary: 'Ask to move the account to a new address: a link is mailed to it',
    body: { schema: changeEmailBody },
    responses: {
      '202': { description: 'Link sent to the new address', schema: message },
      ...JSON_BODY_ERRORS,
      '401': unauthenticated,
      '403': failure('wrong_password'),
      '409': failure('email_taken'),
      '429': confirmLimit,
    },
  }),
  account.post('/account/password', 'changePassword', {
    summary: 'Change the password; every other session ends',
    body: { schema: changePasswordBody },
    responses: {
      '200': {
        description: 'Changed',
        schema: z.object({ endedSessions: z.int().describe('Other sessions ended') }),
      },
      ...JSON_BODY_ERRORS,
      '401': unauthenticated,
      '403': failure('wrong_password'),
      '409': failure('no_password: a Google account without password (use forgot password)'),
      '429': confirmLimit,
    },
  }),
  account.get('/account/sessions', 'listOwnSessions', {
    summary: "The signed-in user's live sessions, newest first",
    responses: {
      '200': { description: 'Sessions', schema: z.array(ref('OwnSession')) },
      '401': unauthenticated,
    },
  }),
  account.delete('/account/sessions', 'endOtherSessions', {
    summary: 'Sign out every other session',
    responses: {
      '200': { description: 'Ended', schema: z.object({ endedSessions: z.int() }) },
      '401': unauthenticated,
    },
  }),
  account.delete('/account/sessions/{sessionId}', 'endOwnSession', {
    summary: 'Sign out one of your sessions (your own: the cookie is cleared)',
    params: {
      sessionId: z
        .string()
        .describe('`_id` from the session list')
        .meta({ example: '0'.repeat(64) }),
    },
    responses: {
      '204': { description: 'Ended' },
      '401': unauthenticated,
      '404': failure('session_not_found'),
    },
  }),
  account.delete('/account', 'deleteAccount', {
    summary:
      'Delete the account; organisations you are the only member of go with it. The last owner of an organisation with other members must make another owner first',
    body: { schema: deleteAccountBody },
    responses: {
      '204': { description: 'Deleted; the cookie is cleared' },
      ...JSON_BODY_ERRORS,
      '401': unauthenticated,
      '403': failure('wrong_password'),
      '409': {
        description: 'last_owner, with the organisations to hand over',
        schema: z.object({
          code: z.literal('last_owner'),
          message: z.string(),
          organisations: z.array(z.object({ _id: uuidParam('Organisation'), name: z.string() })),
        }),
      },
      '429': confirmLimit,
    },
  }),
  account.get('/mail/outbox', 'readOutbox', {
    summary:
      'The development outbox: mail kept because no SMTP server is configured (operators in OPERATOR_EMAILS only)',
    responses: {
      '200': {
        description: 'The newest kept mails (none when mail goes through SMTP)',
        schema: z.object({
          mode: z.enum(['smtp', 'outbox']),
          items: z.array(
            z.object({
              _id: z.int(),
              to: z.string(),
              subject: z.string(),
              text: z.string(),
              createdAt: dateTime,
            }),
          ),
        }),
      },
      '401': unauthenticated,
      '403': failure('not_operator'),
    },
  }),
]
