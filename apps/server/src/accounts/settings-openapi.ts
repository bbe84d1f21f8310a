// The declared calls of an organisation's settings, API tokens and signing keys.
import { z } from 'zod'
import { type ApiPart, dateTime, failure, orgRoute, ref, uuidParam } from '../http/openapi-kit.ts'

import { BAD_REQUEST, NOT_YOURS, OWNERS_ONLY } from './openapi-answers.ts'
import { ORGANIZATION } from './paths.ts'
import { settingsBody, tokenBody } from './requests.ts'

export const SETTINGS_API: ApiPart = {
  tags: [],
  schemas: {
    ApiToken: z.object({
      _id: z.string(),
      name: z.string(),
      prefix: z.string().describe('The first characters, to tell tokens apart'),
      createdAt: dateTime,
      lastUsedAt: dateTime.nullable(),
    }),
    OrganisationSettings: z.object({
      requireSignedUrls: z
        .boolean()
        .describe(
          'Delivery answers only URLs signed with a live signing key of the organisation (401 invalid_signature)',
        ),
      strictTransformations: z
        .boolean()
        .describe(
          'A delivery URL may run operations that cost credits (AI operations) only when it is signed or the operation comes from one of the organisation’s presets (401 strict_transformations). On for new organisations.',
        ),
      allowRawFiles: z
        .boolean()
        .describe('Uploads may store files that are not images (served as attachments)'),
      corsOrigins: z
        .array(z.string())
        .describe(
          "Who may read delivered images from another site's scripts (fetch, canvas): ['*'] anyone (the default), a list of origins (the request's Origin is echoed, Vary: Origin), or [] (no CORS header). Signed URLs get the same header.",
        ),
    }),
    SigningKey: z.object({
      _id: z.string(),
      accessKey: z.string().describe('Public: written into signed URLs as pbt'),
      createdAt: dateTime,
    }),
    NewSigningKey: z.object({
      _id: z.string(),
      accessKey: z.string().describe('Public: written into signed URLs as pbt'),
      createdAt: dateTime,
      secret: z
        .string()
        .describe('Shown once: the HMAC key that signs URLs (signUrl in @tessera/url)'),
    }),
    NewApiToken: z.object({
      _id: z.string(),
      name: z.string(),
      prefix: z.string(),
      createdAt: dateTime,
      lastUsedAt: dateTime.nullable(),
      token: z.string().describe('Shown once; only its hash is stored'),
    }),
  },
  routes: [
    orgRoute({
      method: 'post',
      path: `${ORGANIZATION}/{orgId}/tokens`,
      operationId: 'createApiToken',
      access: { role: 'admin' },
      summary: 'Create an API token (owners, signed in); the token is shown once',
      tags: ['organisations'],
      body: { schema: tokenBody },
      responses: {
        '201': { description: 'Created', schema: ref('NewApiToken') },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...NOT_YOURS,
        '409': failure('too_many_tokens (50 live tokens at most)'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ORGANIZATION}/{orgId}/tokens`,
      operationId: 'listApiTokens',
      access: { role: 'admin' },
      summary: 'Live API tokens, without their secret (owners)',
      tags: ['organisations'],
      responses: {
        '200': { description: 'Newest first', schema: z.array(ref('ApiToken')) },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...NOT_YOURS,
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ORGANIZATION}/{orgId}/tokens/{tokenId}`,
      operationId: 'revokeApiToken',
      access: { role: 'admin' },
      summary: 'Revoke an API token (owners); it stops working at once',
      tags: ['organisations'],
      params: { tokenId: uuidParam('The token') },
      responses: {
        '204': { description: 'Done' },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...NOT_YOURS,
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ORGANIZATION}/{orgId}/settings`,
      operationId: 'getOrganisationSettings',
      access: { role: 'viewer' },
      summary: 'The organisation’s delivery and upload settings',
      tags: ['organisations'],
      responses: {
        '200': { description: 'The settings', schema: ref('OrganisationSettings') },
        ...BAD_REQUEST,
        ...NOT_YOURS,
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ORGANIZATION}/{orgId}/settings`,
      operationId: 'updateOrganisationSettings',
      access: { role: 'admin' },
      summary: 'Change settings (owners); settings not sent are kept',
      tags: ['organisations'],
      body: { schema: settingsBody },
      responses: {
        '200': {
          description: 'The settings after the change',
          schema: ref('OrganisationSettings'),
        },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...NOT_YOURS,
        '409': failure('no_signing_key: requireSignedUrls needs a live signing key first'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${ORGANIZATION}/{orgId}/signing-keys`,
      operationId: 'createSigningKey',
      access: { role: 'admin' },
      summary: 'Create a URL signing key (owners); the secret is shown once',
      tags: ['organisations'],
      responses: {
        '201': { description: 'Created', schema: ref('NewSigningKey') },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...NOT_YOURS,
        '409': failure('too_many_signing_keys (10 live keys at most)'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ORGANIZATION}/{orgId}/signing-keys`,
      operationId: 'listSigningKeys',
      access: { role: 'admin' },
      summary: 'Live signing keys, without their secret (owners)',
      tags: ['organisations'],
      responses: {
        '200': { description: 'Oldest first', schema: z.array(ref('SigningKey')) },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...NOT_YOURS,
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ORGANIZATION}/{orgId}/signing-keys/{keyId}`,
      operationId: 'revokeSigningKey',
      access: { role: 'admin' },
      summary: 'Revoke a signing key (owners); URLs signed with it stop working at once',
      tags: ['organisations'],
      params: { keyId: uuidParam('The signing key') },
      responses: {
        '204': { description: 'Done' },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        '404': failure(
          'organisation_not_found, or signing_key_not_found: no live key with this id',
        ),
        '409': failure('last_signing_key: signed URLs are required and this is the last key'),
      },
    }),
  ],
}
