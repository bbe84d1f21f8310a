// The declared calls of an organisation's settings, API tokens and signing keys.
import { z } from 'zod'
import { type ApiPart, dateTime, failure, json, ref, uuidParam } from '../http/openapi-kit.ts'

import { DONE, organisations, owners } from './openapi-answers.ts'
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
    owners.post('/tokens', 'createApiToken', 'admin', {
      summary: 'Create an API token (owners, signed in); the token is shown once',
      body: { schema: tokenBody },
      responses: {
        '201': json(ref('NewApiToken'), 'Created'),
        '409': failure('too_many_tokens (50 live tokens at most)'),
      },
    }),
    owners.get('/tokens', 'listApiTokens', 'admin', {
      summary: 'Live API tokens, without their secret (owners)',
      responses: { '200': json(z.array(ref('ApiToken')), 'Newest first') },
    }),
    owners.delete('/tokens/{tokenId}', 'revokeApiToken', 'admin', {
      summary: 'Revoke an API token (owners); it stops working at once',
      params: { tokenId: uuidParam('The token') },
      responses: { '204': DONE },
    }),
    organisations.get('/settings', 'getOrganisationSettings', 'viewer', {
      summary: 'The organisation’s delivery and upload settings',
      responses: { '200': json(ref('OrganisationSettings'), 'The settings') },
    }),
    owners.patch('/settings', 'updateOrganisationSettings', 'admin', {
      summary: 'Change settings (owners); settings not sent are kept',
      body: { schema: settingsBody },
      responses: {
        '200': json(ref('OrganisationSettings'), 'The settings after the change'),
        '409': failure('no_signing_key: requireSignedUrls needs a live signing key first'),
      },
    }),
    owners.post('/signing-keys', 'createSigningKey', 'admin', {
      summary: 'Create a URL signing key (owners); the secret is shown once',
      responses: {
        '201': json(ref('NewSigningKey'), 'Created'),
        '409': failure('too_many_signing_keys (10 live keys at most)'),
      },
    }),
    owners.get('/signing-keys', 'listSigningKeys', 'admin', {
      summary: 'Live signing keys, without their secret (owners)',
      responses: { '200': json(z.array(ref('SigningKey')), 'Oldest first') },
    }),
    owners.delete('/signing-keys/{keyId}', 'revokeSigningKey', 'admin', {
      summary: 'Revoke a signing key (owners); URLs signed with it stop working at once',
      params: { keyId: uuidParam('The signing key') },
      responses: {
        '204': DONE,
        '404': failure(
          'organisation_not_found, or signing_key_not_found: no live key with this id',
        ),
        '409': failure('last_signing_key: signed URLs are required and this is the last key'),
      },
    }),
  ],
}
