// The declared calls of custom domains (issue 24) and the TLS proxy's ask.
import { z } from 'zod'
import { BAD_REQUEST, NOT_YOURS, OWNERS_ONLY } from '../accounts/openapi-answers.ts'
import {
  type ApiPart,
  dateTime,
  failure,
  orgRoute,
  ref,
  route,
  uuidParam,
} from '../http/openapi-kit.ts'
import { DOMAINS_BASE, TLS_ASK_PATH } from './paths.ts'
import { domainBody } from './requests.ts'

const DOMAIN_404 = {
  '404': failure(
    'organisation_not_found, or domain_not_found: no such domain of this organisation',
  ),
}

export const DOMAINS_API: ApiPart = {
  tags: [
    {
      name: 'domains',
      description:
        'Custom domains: registered, proven with a DNS TXT record or an HTTP file, then https://<domain>/v2/{pattern}/{filePath} delivers the organisation’s images. TLS is the proxy’s (deploy/README.md).',
    },
  ],
  schemas: {
    CustomDomain: z.object({
      _id: z.string(),
      host: z.string().describe('Lower case, e.g. img.example.com'),
      status: z
        .enum(['pending', 'verified', 'failed'])
        .describe('Delivery answers on verified domains only'),
      createdAt: dateTime,
      checkedAt: dateTime.nullable(),
      verifiedAt: dateTime.nullable(),
      lastError: z.string().nullable().describe('What the last check found wrong'),
      challenge: z
        .object({
          dns: z.object({
            type: z.literal('TXT'),
            name: z.string().describe('_tessera-challenge.<host>'),
            value: z.string().describe('tessera-verification=<token>'),
          }),
          http: z.object({
            url: z.string().describe('http://<host>/.well-known/tessera-challenge/<token>'),
            body: z.string().describe('What the URL must answer (the token)'),
          }),
        })
        .nullable()
        .describe('Publish either one, then check; null for a domain the operator added'),
      deliveryBase: z.string().describe('https://<host>/v2: delivery URLs without a cloud name'),
      method: z
        .enum(['dns', 'http'])
        .optional()
        .describe('After a successful check: which challenge proved control'),
    }),
  },
  routes: [
    orgRoute({
      method: 'get',
      path: `${DOMAINS_BASE}/{orgId}/domains`,
      access: { role: 'viewer' },
      operationId: 'listDomains',
      summary: 'The organisation’s custom domains, oldest first',
      tags: ['domains'],
      responses: {
        '200': { description: 'The domains', schema: z.array(ref('CustomDomain')) },
        ...BAD_REQUEST,
        ...NOT_YOURS,
      },
    }),
    orgRoute({
      method: 'post',
      path: `${DOMAINS_BASE}/{orgId}/domains`,
      access: { role: 'admin' },
      operationId: 'addDomain',
      summary: 'Register a custom domain (owners); pending until checked',
      tags: ['domains'],
      body: { schema: domainBody },
      responses: {
        '201': { description: 'Registered, with its challenge', schema: ref('CustomDomain') },
        '400': failure('invalid_domain: not a domain name, or one of the server’s own hosts'),
        ...OWNERS_ONLY,
        ...NOT_YOURS,
        '409': failure('domain_taken (by any organisation), or too_many_domains (20 at most)'),
      },
    }),
    orgRoute({
      method: 'post',
      path: `${DOMAINS_BASE}/{orgId}/domains/{domainId}/check`,
      access: { role: 'admin' },
      operationId: 'checkDomain',
      summary:
        'Look for the challenge now (owners): verified when the TXT record or the HTTP file holds the token, failed otherwise',
      tags: ['domains'],
      params: { domainId: uuidParam('The domain') },
      responses: {
        '200': { description: 'The domain after the check', schema: ref('CustomDomain') },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...DOMAIN_404,
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${DOMAINS_BASE}/{orgId}/domains/{domainId}`,
      access: { role: 'admin' },
      operationId: 'removeDomain',
      summary: 'Remove a custom domain (owners); it stops delivering at once',
      tags: ['domains'],
      params: { domainId: uuidParam('The domain') },
      responses: {
        '204': { description: 'Removed' },
        ...BAD_REQUEST,
        ...OWNERS_ONLY,
        ...DOMAIN_404,
      },
    }),
    route({
      method: 'get',
      path: TLS_ASK_PATH,
      operationId: 'tlsAsk',
      summary:
        'For the TLS proxy’s on-demand certificates (Caddy’s ask): 200 for a verified custom domain or the server’s own host, 403 otherwise',
      tags: ['domains'],
      query: z.object({
        domain: z.string().meta({ example: 'img.example.com' }).describe('The host name asked for'),
      }),
      responses: {
        '200': {
          description: 'A certificate may be issued',
          schema: z.object({ domain: z.string(), allowed: z.literal(true) }),
        },
        '403': failure('not_served: the name is not a verified domain here (no certificate)'),
      },
    }),
  ],
}
