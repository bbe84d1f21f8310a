// The declared calls of identity: sign-up, sign-in, sessions, the signed-in user and their
// organisations.
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../db/index.ts'
import {
  type ApiPart,
  calls,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  ref,
  withCookie,
} from '../http/openapi-kit.ts'

import { ACCOUNT_ROUTES, ACCOUNT_SCHEMAS } from './account-openapi.ts'
import { LOGIN_LIMITS } from './identity.ts'
import { ORGANIZATION, USERS } from './paths.ts'
import { loginBody, signupBody } from './requests.ts'

const identity = calls(USERS, 'identity')

export const IDENTITY_OPENAPI: ApiPart = {
  tags: [
    { name: 'identity', description: 'Sign-up, login, the session cookie and organisations' },
    {
      name: 'account',
      description: 'Password reset, e-mail confirmation and change, own sessions, deletion',
    },
  ],
  schemas: {
    User: z.object({
      _id: formatted('uuid'),
      email: formatted('email'),
      firstName: z.string(),
      lastName: z.string(),
      emailVerified: z.boolean().describe('Whether the address was confirmed by a mailed link'),
      hasPassword: z.boolean().describe('False for Google accounts that never set a password'),
      createdAt: dateTime,
    }),
    ...ACCOUNT_SCHEMAS,
    UserAnswer: z.object({ user: ref('User') }),
    Session: z.object({ session: z.object({ passport: z.object({ user: ref('User') }) }) }),
    MemberOrganisation: z.object({
      _id: formatted('uuid'),
      name: z.string(),
      cloudName: z.string().describe('First segment of delivery URLs'),
      role: z.enum(MEMBERSHIP_ROLES),
      createdAt: dateTime,
      joinedAt: dateTime,
    }),
  },
  routes: [
    identity.post('/auth/signup', 'signup', {
      summary: 'Create an account and its organisation; sets the bg.session cookie',
      body: { schema: signupBody },
      responses: {
        '201': withCookie({ description: 'Signed up and signed in', schema: ref('UserAnswer') }),
        '400': failure('invalid_json, invalid_body or weak_password'),
        '409': failure('email_taken'),
        ...JSON_BODY_LIMITS,
      },
    }),
    identity.post('/auth/login', 'login', {
      summary: 'Sign in; sets a new bg.session cookie and ends the one sent',
      body: { schema: loginBody },
      responses: {
        '200': withCookie({ description: 'Signed in', schema: ref('UserAnswer') }),
        '400': failure('invalid_json or invalid_body'),
        '401': failure('invalid_credentials (same for an unknown email)'),
        ...JSON_BODY_LIMITS,
        '429': {
          description: `too_many_attempts: ${LOGIN_LIMITS.perAccountAndAddress} failures per account (${LOGIN_LIMITS.perAddress} per address) in ${LOGIN_LIMITS.windowMs / 60_000} min`,
          schema: ref('Error'),
          headers: { 'Retry-After': { description: 'Seconds', schema: z.int() } },
        },
      },
    }),
    identity.post('/auth/logout', 'logout', {
      summary: 'End the session and clear the cookie',
      responses: { '204': { description: 'Signed out (also when no session was sent)' } },
    }),
    identity.get('/session', 'getSession', {
      summary: 'The signed-in user (SPEC §7.2)',
      responses: {
        '200': { description: 'The session of the bg.session cookie', schema: ref('Session') },
        '401': failure('unauthenticated: no, unknown, forged or expired cookie'),
      },
    }),
    identity.patch('/profile/meta', 'setProfileMeta', {
      summary: 'Replace the profile meta (any JSON object up to 16 KB)',
      body: { schema: z.record(z.string(), z.unknown()) },
      responses: {
        '200': {
          description: 'The stored meta',
          schema: z.object({ meta: z.record(z.string(), z.unknown()) }),
        },
        '400': failure('Not a JSON object, NUL or unpaired surrogate, nested over 32'),
        '401': failure('unauthenticated'),
        '413': failure('Meta over 16 KB or body over 64 KB'),
        '415': failure('Not application/json'),
      },
    }),
    calls(ORGANIZATION, 'identity').get('/all', 'listOrganisations', {
      summary: "The user's organisations; the first is the active one",
      responses: {
        '200': {
          description: 'Organisations with the role held',
          schema: z.array(ref('MemberOrganisation')),
        },
        '401': failure('unauthenticated'),
      },
    }),
    ...ACCOUNT_ROUTES,
  ],
}
