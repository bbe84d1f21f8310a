// The OpenAPI part of an organisation's details, members and invitations, API tokens, settings
// and signing keys, and Google one-tap.
import {
  arrayOf,
  bool,
  dateTime,
  failure,
  int,
  json,
  jsonBody,
  type OpenApiOperation,
  type OpenApiPart,
  type OpenApiResponse,
  object,
  orgIdParam,
  ref,
  str,
  uuidParam,
} from '../http/openapi-kit.ts'
import { ORGANIZATION as ORG, USERS } from './paths.ts'

const COMMON: Record<string, OpenApiResponse> = {
  '400': failure('invalid_json, invalid_body, or a signature_* problem (see Request signing)'),
  '401': failure('unauthenticated (no session) or invalid_token'),
  '404': failure('organisation_not_found: not an organisation of yours (or an unknown id)'),
}
const ownersOnly = failure('forbidden: only owners (and never API tokens) may do this')
const noContent: OpenApiResponse = { description: 'Done' }

const operation = (
  operationId: string,
  summary: string,
  responses: Record<string, OpenApiResponse>,
  extra: Partial<OpenApiOperation> = {},
): OpenApiOperation => ({
  operationId,
  summary,
  tags: ['organisations'],
  parameters: [orgIdParam],
  ...extra,
  responses: { ...COMMON, ...responses },
})

/** The OpenAPI description of API tokens, members and invitations, Google one-tap. */
export const ACCOUNT_API: OpenApiPart = {
  tags: [
    {
      name: 'organisations',
      description:
        'An organisation, its members, invitations, API tokens, settings and URL signing keys. Members sign in; API tokens (Authorization: Bearer tsk_…) act for their own organisation.',
    },
  ],
  schemas: {
    Organisation: object({
      _id: str(),
      name: str(),
      cloudName: str(),
      role: { type: 'string', enum: ['owner', 'member', 'token'] },
      planId: int('The plan (-994 is the free plan)'),
      credits: int('Credit balance'),
      requireSignedUrls: { type: 'boolean' },
      createdAt: dateTime,
    }),
    OrganisationChanged: object({ _id: str(), name: str(), cloudName: str() }),
    Member: object({
      _id: str('The user id'),
      email: str(),
      firstName: str(),
      lastName: str(),
      role: { type: 'string', enum: ['owner', 'member'] },
      joinedAt: dateTime,
    }),
    Invitation: object({
      _id: str(),
      email: str(),
      role: { type: 'string', enum: ['owner', 'member'] },
      createdAt: dateTime,
      expiresAt: dateTime,
    }),
    NewInvitation: object({
      _id: str(),
      email: str(),
      role: { type: 'string', enum: ['owner', 'member'] },
      createdAt: dateTime,
      expiresAt: dateTime,
      token: str('Shown once: the invited user accepts with it'),
      acceptUrl: str('A console link carrying the token, to send to the invited address'),
    }),
    ApiToken: object({
      _id: str(),
      name: str(),
      prefix: str('The first characters, to tell tokens apart'),
      createdAt: dateTime,
      lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
    }),
    OrganisationSettings: object({
      requireSignedUrls: {
        type: 'boolean',
        description:
          'Delivery answers only URLs signed with a live signing key of the organisation (401 invalid_signature)',
      },
      strictTransformations: {
        type: 'boolean',
        description:
          'A delivery URL may run operations that cost credits (AI operations) only when it is signed or the operation comes from one of the organisation’s presets (401 strict_transformations). On for new organisations.',
      },
      allowRawFiles: {
        type: 'boolean',
        description: 'Uploads may store files that are not images (served as attachments)',
      },
    }),
    SigningKey: object({
      _id: str(),
      accessKey: str('Public: written into signed URLs as pbt'),
      createdAt: dateTime,
    }),
    NewSigningKey: object({
      _id: str(),
      accessKey: str('Public: written into signed URLs as pbt'),
      createdAt: dateTime,
      secret: str('Shown once: the HMAC key that signs URLs (signUrl in @tessera/url)'),
    }),
    NewApiToken: object({
      _id: str(),
      name: str(),
      prefix: str(),
      createdAt: dateTime,
      lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
      token: str('Shown once; only its hash is stored'),
    }),
  },
  paths: {
    [`${USERS}/auth/google`]: {
      post: {
        operationId: 'googleOneTap',
        summary: 'Sign in or up with a Google one-tap ID token',
        description:
          "Verifies the ID token against Google's keys, issuer and our client id (GOOGLE_CLIENT_ID). A known Google account signs in; a verified email of an existing account is linked; anyone else gets a new account and organisation (201). Sets the bg.session cookie.",
        tags: ['identity'],
        requestBody: jsonBody(
          object({
            credential: str('The ID token (JWT) Google gave the page'),
          }),
        ),
        responses: {
          '200': json(
            object({
              user: ref('User'),
              isNewUser: { type: 'boolean', const: false },
            }),
            'Signed in',
          ),
          '201': json(
            object({
              user: ref('User'),
              isNewUser: { type: 'boolean', const: true },
            }),
            'Account created and signed in',
          ),
          '400': failure('invalid_json or invalid_body'),
          '401': failure('invalid_google_token: bad signature, issuer, audience or expired'),
          '403': failure('email_not_verified'),
          '404': failure('google_sign_in_off: no GOOGLE_CLIENT_ID configured'),
          '409': failure('google_account_conflict'),
          '429': failure('too_many_signups'),
          '503': failure("google_unavailable: Google's keys could not be fetched"),
        },
      },
    },
    [`${ORG}/{orgId}`]: {
      get: operation('getOrganisation', 'The organisation, your role, plan and credits', {
        '200': json(ref('Organisation'), 'The organisation'),
      }),
      patch: operation(
        'updateOrganisation',
        'Rename the organisation or change its cloud name (owners)',
        {
          '200': json(ref('OrganisationChanged'), 'Changed'),
          '403': ownersOnly,
          '409': failure('cloud_name_taken'),
        },
        {
          description:
            'A new cloud name changes every delivery URL of the organisation: the old URLs stop working.',
          requestBody: jsonBody({
            type: 'object',
            properties: {
              name: str(),
              cloudName: str('3–40 of a-z, 0-9 and -'),
            },
            additionalProperties: false,
          }),
        },
      ),
    },
    [`${ORG}/{orgId}/members`]: {
      get: operation('listMembers', 'The members and their roles (members; not tokens)', {
        '200': json(arrayOf(ref('Member')), 'Oldest member first'),
        '403': failure('forbidden: API tokens cannot list members'),
      }),
    },
    [`${ORG}/{orgId}/members/{userId}`]: {
      patch: operation(
        'setMemberRole',
        "Change a member's role (owners)",
        {
          '200': json(object({ _id: str(), role: str() }), 'Changed'),
          '403': ownersOnly,
          '409': failure('last_owner: the organisation would have no owner'),
        },
        {
          parameters: [orgIdParam, uuidParam('userId', 'The member (user id)')],
          requestBody: jsonBody(object({ role: { type: 'string', enum: ['owner', 'member'] } })),
        },
      ),
      delete: operation(
        'removeMember',
        'Remove a member (owners), or leave (yourself)',
        {
          '204': noContent,
          '403': ownersOnly,
          '409': failure('last_owner: the last owner cannot leave'),
        },
        {
          parameters: [orgIdParam, uuidParam('userId', 'The member (user id)')],
        },
      ),
    },
    [`${ORG}/{orgId}/invitations`]: {
      post: operation(
        'createInvitation',
        'Invite an email address to join (owners); the token is shown once',
        {
          '201': json(ref('NewInvitation'), 'Invited; an earlier open invitation to it is revoked'),
          '403': ownersOnly,
          '409': failure('already_member'),
        },
        {
          requestBody: jsonBody({
            type: 'object',
            properties: {
              email: { type: 'string', format: 'email' },
              role: {
                type: 'string',
                enum: ['owner', 'member'],
                default: 'member',
              },
            },
            required: ['email'],
            additionalProperties: false,
          }),
        },
      ),
      get: operation('listInvitations', 'Open invitations (owners)', {
        '200': json(arrayOf(ref('Invitation')), 'Newest first'),
        '403': ownersOnly,
      }),
    },
    [`${ORG}/{orgId}/invitations/{invitationId}`]: {
      delete: operation(
        'revokeInvitation',
        'Revoke an open invitation (owners)',
        { '204': noContent, '403': ownersOnly },
        {
          parameters: [orgIdParam, uuidParam('invitationId', 'The invitation')],
        },
      ),
    },
    [`${ORG}/invitations/accept`]: {
      post: {
        operationId: 'acceptInvitation',
        summary: 'Join an organisation with an invitation token (signed in as the invited email)',
        tags: ['organisations'],
        requestBody: jsonBody(object({ token: str() })),
        responses: {
          '200': json(
            object({
              organisation: object({
                _id: str(),
                name: str(),
                cloudName: str(),
                role: str(),
              }),
            }),
            'Joined',
          ),
          '400': COMMON['400'] as OpenApiResponse,
          '401': failure('unauthenticated'),
          '404': failure('invitation_not_found: unknown, used, revoked or expired'),
          '409': failure('invitation_email_mismatch or already_member'),
        },
      },
    },
    [`${ORG}/{orgId}/tokens`]: {
      post: operation(
        'createApiToken',
        'Create an API token (owners, signed in); the token is shown once',
        {
          '201': json(ref('NewApiToken'), 'Created'),
          '403': ownersOnly,
          '409': failure('too_many_tokens (50 live tokens at most)'),
        },
        {
          requestBody: jsonBody(object({ name: str('A label, 1–100 characters') })),
        },
      ),
      get: operation('listApiTokens', 'Live API tokens, without their secret (owners)', {
        '200': json(arrayOf(ref('ApiToken')), 'Newest first'),
        '403': ownersOnly,
      }),
    },
    [`${ORG}/{orgId}/tokens/{tokenId}`]: {
      delete: operation(
        'revokeApiToken',
        'Revoke an API token (owners); it stops working at once',
        { '204': noContent, '403': ownersOnly },
        { parameters: [orgIdParam, uuidParam('tokenId', 'The token')] },
      ),
    },
    [`${ORG}/{orgId}/settings`]: {
      get: operation('getOrganisationSettings', 'The organisation’s delivery and upload settings', {
        '200': json(ref('OrganisationSettings'), 'The settings'),
      }),
      patch: operation(
        'updateOrganisationSettings',
        'Change settings (owners); settings not sent are kept',
        {
          '200': json(ref('OrganisationSettings'), 'The settings after the change'),
          '403': ownersOnly,
          '409': failure('no_signing_key: requireSignedUrls needs a live signing key first'),
        },
        {
          requestBody: jsonBody({
            type: 'object',
            properties: {
              requireSignedUrls: bool,
              strictTransformations: bool,
              allowRawFiles: bool,
            },
            additionalProperties: false,
          }),
        },
      ),
    },
    [`${ORG}/{orgId}/signing-keys`]: {
      post: operation(
        'createSigningKey',
        'Create a URL signing key (owners); the secret is shown once',
        {
          '201': json(ref('NewSigningKey'), 'Created'),
          '403': ownersOnly,
          '409': failure('too_many_signing_keys (10 live keys at most)'),
        },
      ),
      get: operation('listSigningKeys', 'Live signing keys, without their secret (owners)', {
        '200': json(arrayOf(ref('SigningKey')), 'Oldest first'),
        '403': ownersOnly,
      }),
    },
    [`${ORG}/{orgId}/signing-keys/{keyId}`]: {
      delete: operation(
        'revokeSigningKey',
        'Revoke a signing key (owners); URLs signed with it stop working at once',
        {
          '204': noContent,
          '403': ownersOnly,
          '404': failure(
            'organisation_not_found, or signing_key_not_found: no live key with this id',
          ),
          '409': failure('last_signing_key: signed URLs are required and this is the last key'),
        },
        { parameters: [orgIdParam, uuidParam('keyId', 'The signing key')] },
      ),
    },
  },
}
