// The declared calls of organisations: Google sign-in, the organisation, its members and
// invitations.
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../db/index.ts'
import {
  type ApiPart,
  dateTime,
  failure,
  json,
  ref,
  route,
  uuidParam,
} from '../http/openapi-kit.ts'

import { BAD_REQUEST, DONE, organisations, owners } from './openapi-answers.ts'
import { ORGANIZATION, USERS } from './paths.ts'
import {
  acceptBody,
  googleBody,
  invitationBody,
  organisationChanges,
  roleBody,
} from './requests.ts'

const MEMBER = { userId: uuidParam('The member (user id)') }
/** Any member signed in; never an API token. */
const SIGNED_IN = { role: 'viewer', tokens: false } as const

export const ACCOUNT_API: ApiPart = {
  tags: [
    {
      name: 'organisations',
      description:
        'An organisation, its members, invitations, API tokens, settings and URL signing keys. Members sign in; API tokens (Authorization: Bearer tsk_…) act for their own organisation.',
    },
  ],
  schemas: {
    Organisation: z.object({
      _id: z.string(),
      name: z.string(),
      cloudName: z.string(),
      role: z.enum([...MEMBERSHIP_ROLES, 'token']),
      planId: z.int().describe('The plan (-994 is the free plan)'),
      credits: z.int().describe('Credit balance'),
      requireSignedUrls: z.boolean(),
      createdAt: dateTime,
    }),
    OrganisationChanged: z.object({ _id: z.string(), name: z.string(), cloudName: z.string() }),
    Member: z.object({
      _id: z.string().describe('The user id'),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      role: z.enum(MEMBERSHIP_ROLES),
      joinedAt: dateTime,
    }),
    Invitation: z.object({
      _id: z.string(),
      email: z.string(),
      role: z.enum(MEMBERSHIP_ROLES),
      createdAt: dateTime,
      expiresAt: dateTime,
    }),
    NewInvitation: z.object({
      _id: z.string(),
      email: z.string(),
      role: z.enum(MEMBERSHIP_ROLES),
      createdAt: dateTime,
      expiresAt: dateTime,
      token: z.string().describe('Shown once: the invited user accepts with it'),
      acceptUrl: z
        .string()
        .describe('A console link carrying the token, to send to the invited address'),
    }),
  },
  routes: [
    route({
      method: 'post',
      path: `${USERS}/auth/google`,
      operationId: 'googleOneTap',
      summary: 'Sign in or up with a Google one-tap ID token',
      description:
        "Verifies the ID token against Google's keys, issuer and our client id (GOOGLE_CLIENT_ID). A known Google account signs in; a verified email of an existing account is linked; anyone else gets a new account and organisation (201). Sets the bg.session cookie.",
      tags: ['identity'],
      body: { schema: googleBody },
      responses: {
        '200': {
          description: 'Signed in',
          schema: z.object({ user: ref('User'), isNewUser: z.literal(false) }),
        },
        '201': {
          description: 'Account created and signed in',
          schema: z.object({ user: ref('User'), isNewUser: z.literal(true) }),
        },
        '400': failure('invalid_json or invalid_body'),
        '401': failure('invalid_google_token: bad signature, issuer, audience or expired'),
        '403': failure('email_not_verified'),
        '404': failure('google_sign_in_off: no GOOGLE_CLIENT_ID configured'),
        '409': failure('google_account_conflict'),
        '429': failure('too_many_signups'),
        '503': failure("google_unavailable: Google's keys could not be fetched"),
      },
    }),
    organisations.get('', 'getOrganisation', 'viewer', {
      summary: 'The organisation, your role, plan and credits',
      responses: { '200': json(ref('Organisation'), 'The organisation') },
    }),
    owners.patch('', 'updateOrganisation', 'admin', {
      summary: 'Rename the organisation or change its cloud name (owners)',
      description:
        'A new cloud name changes every delivery URL of the organisation: the old URLs stop working.',
      body: { schema: organisationChanges },
      responses: {
        '200': json(ref('OrganisationChanged'), 'Changed'),
        '409': failure('cloud_name_taken'),
      },
    }),
    organisations.get('/members', 'listMembers', SIGNED_IN, {
      summary: 'The members and their roles (members; not tokens)',
      responses: {
        '200': json(z.array(ref('Member')), 'Oldest member first'),
        '403': failure('forbidden: API tokens cannot list members'),
      },
    }),
    owners.patch('/members/{userId}', 'setMemberRole', 'admin', {
      summary: "Change a member's role (owners)",
      params: MEMBER,
      body: { schema: roleBody },
      responses: {
        '200': json(z.object({ _id: z.string(), role: z.string() }), 'Changed'),
        '409': failure('last_owner: the organisation would have no owner'),
      },
    }),
    owners.delete('/members/{userId}', 'removeMember', SIGNED_IN, {
      summary: 'Remove a member (owners), or leave (yourself)',
      params: MEMBER,
      responses: { '204': DONE, '409': failure('last_owner: the last owner cannot leave') },
    }),
    owners.post('/invitations', 'createInvitation', 'admin', {
      summary: 'Invite an email address to join (owners); the token is shown once',
      body: { schema: invitationBody },
      responses: {
        '201': json(ref('NewInvitation'), 'Invited; an earlier open invitation to it is revoked'),
        '409': failure('already_member'),
      },
    }),
    owners.get('/invitations', 'listInvitations', 'admin', {
      summary: 'Open invitations (owners)',
      responses: { '200': json(z.array(ref('Invitation')), 'Newest first') },
    }),
    owners.delete('/invitations/{invitationId}', 'revokeInvitation', 'admin', {
      summary: 'Revoke an open invitation (owners)',
      params: { invitationId: uuidParam('The invitation') },
      responses: { '204': DONE },
    }),
    route({
      method: 'post',
      path: `${ORGANIZATION}/invitations/accept`,
      operationId: 'acceptInvitation',
      summary: 'Join an organisation with an invitation token (signed in as the invited email)',
      tags: ['organisations'],
      body: { schema: acceptBody },
      responses: {
        '200': {
          description: 'Joined',
          schema: z.object({
            organisation: z.object({
              _id: z.string(),
              name: z.string(),
              cloudName: z.string(),
              role: z.string(),
            }),
          }),
        },
        ...BAD_REQUEST,
        '401': failure('unauthenticated'),
        '404': failure('invitation_not_found: unknown, used, revoked or expired'),
        '409': failure('invitation_email_mismatch or already_member'),
      },
    }),
  ],
}
