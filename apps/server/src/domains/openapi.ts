// The declared calls of custom domains (issue 24) and the TLS proxy's ask.
import { z } from 'zod'
import { OF_ANY_ROLE, OWNERS_ONLY } from '../accounts/openapi-answers.ts'
import {
  type ApiPart,
  dateTime,
  failure,
  json,
  notFoundIn,
  orgCalls,
  ref,
  route,
  uuidParam,
} from '../http/openapi-kit.ts'
import { DOMAINS_BASE, TLS_ASK_PATH } from './paths.ts'
import { domainBody } from './requests.ts'

const domains = orgCalls(DOMAINS_BASE, 'domains', OF_ANY_ROLE)
const DOMAIN = { domainId: uuidParam('The domain') }
/** The failures of a call on one domain. */
const ON_DOMAIN = {
  ...OWNERS_ONLY,
  ...notFoundIn('domain_not_found: no such domain of this organisation'),
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
    domains.get('/domains', 'listDomains', 'viewer', {
      summary: 'The organisation’s custom domains, oldest first',
      responses: { '200': json(z.array(ref('CustomDomain')), 'The domains') },
    }),
    domains.post('/domains', 'addDomain', 'admin', {
      summary: 'Register a custom domain (owners); pending until checked',
      body: { schema: domainBody },
      responses: {
        '201': json(ref('CustomDomain'), 'Registered, with its challenge'),
        '400': failure('invalid_domain: not a domain name, or one of the server’s own hosts'),
        ...OWNERS_ONLY,
        '409': failure('domain_taken (by any organisation), or too_many_domains (20 at most)'),
      },
    }),
    domains.post('/domains/{domainId}/check', 'checkDomain', 'admin', {
      summary:
        'Look for the challenge now (owners): verified when the TXT record or the HTTP file holds the token, failed otherwise',
      params: DOMAIN,
      responses: { '200': json(ref('CustomDomain'), 'The domain after the check'), ...ON_DOMAIN },
    }),
    domains.delete('/domains/{domainId}', 'removeDomain', 'admin', {
      summary: 'Remove a custom domain (owners); it stops delivering at once',
      params: DOMAIN,
      responses: { '204': { description: 'Removed' }, ...ON_DOMAIN },
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
        '200': json(
          z.object({ domain: z.string(), allowed: z.literal(true) }),
          'A certificate may be issued',
        ),
        '403': failure('not_served: the name is not a verified domain here (no certificate)'),
      },
    }),
  ],
}
