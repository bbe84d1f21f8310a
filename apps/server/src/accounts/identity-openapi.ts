// The OpenAPI part of identity: sign-up, login, logout, the session, profile meta and the
// user's organisations.
import {
  arrayOf,
  dateTime,
  failure,
  json,
  type OpenApiPart,
  object,
  ref,
  str,
  withCookie,
} from '../http/openapi-kit.ts'
import { LOGIN_LIMITS } from './identity.ts'
import { ORGANIZATION, USERS } from './paths.ts'

export const IDENTITY_OPENAPI: OpenApiPart = {
  tags: [{ name: 'identity', description: 'Sign-up, login, the session cookie and organisations' }],
  schemas: {
    User: object({
      _id: { type: 'string', format: 'uuid' },
      email: { type: 'string', format: 'email' },
      firstName: str(),
      lastName: str(),
      createdAt: dateTime,
    }),
    UserAnswer: object({ user: ref('User') }),
    Session: object({
      session: object({ passport: object({ user: ref('User') }) }),
    }),
    MemberOrganisation: object({
      _id: { type: 'string', format: 'uuid' },
      name: str(),
      cloudName: str('First segment of delivery URLs'),
      role: { type: 'string', enum: ['owner', 'member'] },
      createdAt: dateTime,
      joinedAt: dateTime,
    }),
  },
  paths: {
    [`${USERS}/auth/signup`]: {
      post: {
        operationId: 'signup',
        summary: 'Create an account and its organisation; sets the bg.session cookie',
        tags: ['identity'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: object({
                email: { type: 'string', format: 'email', maxLength: 254 },
                password: str('10–128 characters, not one character repeated, not the email'),
                firstName: { type: 'string', maxLength: 100 },
                lastName: { type: 'string', maxLength: 100 },
              }),
            },
          },
        },
        responses: {
          '201': withCookie(json(ref('UserAnswer'), 'Signed up and signed in')),
          '400': failure('invalid_json, invalid_body or weak_password'),
          '409': failure('email_taken'),
          '413': failure('Body over 64 KB'),
          '415': failure('Not application/json'),
        },
      },
    },
    [`${USERS}/auth/login`]: {
      post: {
        operationId: 'login',
        summary: 'Sign in; sets a new bg.session cookie and ends the one sent',
        tags: ['identity'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: object({ email: { type: 'string', format: 'email' }, password: str() }),
            },
          },
        },
        responses: {
          '200': withCookie(json(ref('UserAnswer'), 'Signed in')),
          '400': failure('invalid_json or invalid_body'),
          '401': failure('invalid_credentials (same for an unknown email)'),
          '413': failure('Body over 64 KB'),
          '415': failure('Not application/json'),
          '429': {
            ...failure(
              `too_many_attempts: ${LOGIN_LIMITS.perAccountAndAddress} failures per account (${LOGIN_LIMITS.perAddress} per address) in ${LOGIN_LIMITS.windowMs / 60_000} min`,
            ),
            headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } },
          },
        },
      },
    },
    [`${USERS}/auth/logout`]: {
      post: {
        operationId: 'logout',
        summary: 'End the session and clear the cookie',
        tags: ['identity'],
        responses: { '204': { description: 'Signed out (also when no session was sent)' } },
      },
    },
    [`${USERS}/session`]: {
      get: {
        operationId: 'getSession',
        summary: 'The signed-in user (SPEC §7.2)',
        tags: ['identity'],
        responses: {
          '200': json(ref('Session'), 'The session of the bg.session cookie'),
          '401': failure('unauthenticated: no, unknown, forged or expired cookie'),
        },
      },
    },
    [`${USERS}/profile/meta`]: {
      patch: {
        operationId: 'setProfileMeta',
        summary: 'Replace the profile meta (any JSON object up to 16 KB)',
        tags: ['identity'],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        responses: {
          '200': json(object({ meta: { type: 'object' } }), 'The stored meta'),
          '400': failure('Not a JSON object, NUL or unpaired surrogate, nested over 32'),
          '401': failure('unauthenticated'),
          '413': failure('Meta over 16 KB or body over 64 KB'),
          '415': failure('Not application/json'),
        },
      },
    },
    [`${ORGANIZATION}/all`]: {
      get: {
        operationId: 'listOrganisations',
        summary: "The user's organisations; the first is the active one",
        tags: ['identity'],
        responses: {
          '200': json(arrayOf(ref('MemberOrganisation')), 'Organisations with the role held'),
          '401': failure('unauthenticated'),
        },
      },
    },
  },
}
