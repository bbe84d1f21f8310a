// The OpenAPI part of the visitor calls of the website's playground and AI tool pages.
import {
  failure,
  int,
  JSON_BODY_ERRORS,
  json,
  jsonBody,
  type OpenApiPart,
  object,
  orgIdParam,
  ref,
  str,
} from '../http/openapi-kit.ts'
import { MEMBER_PLAYGROUND, PUBLIC_PLAYGROUND } from './paths.ts'

export const PLAYGROUND_OPENAPI: OpenApiPart = {
  tags: [
    {
      name: 'playground',
      description: 'Visitor calls of the playground and AI tool pages on the demo organisation',
    },
  ],
  schemas: {
    PlaygroundSigned: object({
      url: str('The URL signed for an hour, or as sent when its chain has no AI operation'),
      remaining: object({ aiRuns: int('AI runs this address has left today') }),
    }),
  },
  paths: {
    [`${PUBLIC_PLAYGROUND}/sign`]: {
      post: {
        operationId: 'signPlaygroundUrl',
        summary: 'Sign a demo delivery URL whose chain has AI operations',
        description:
          'The demo organisation has strict transformations on. A delivery URL of the demo organisation (absolute on this server, or a path) whose chain writes an operation that costs credits comes back signed with a demo key for one hour, and counts as one of ANON_AI_RUNS_PER_DAY runs of the client address; any other demo URL comes back as sent, uncounted. No session.',
        tags: ['playground'],
        requestBody: jsonBody(
          object({ url: str('e.g. /v2/demo/ic.crop(w:300,h:300)/samples/astronaut.png') }),
        ),
        responses: {
          '200': json(ref('PlaygroundSigned'), 'The URL to use'),
          ...JSON_BODY_ERRORS,
          '400': failure(
            'not_playground_url: not a delivery URL of the demo organisation on this server; invalid_json or invalid_body',
          ),
          '404': failure('not_available: this server has no demo organisation'),
          '429': {
            ...failure('daily_limit_exceeded: this address used its AI runs for today'),
            headers: {
              'Retry-After': {
                description: 'Seconds until a run frees up',
                schema: { type: 'integer' },
              },
            },
          },
        },
      },
    },
    [`${MEMBER_PLAYGROUND}/{orgId}/sign`]: {
      post: {
        operationId: 'signMemberUrl',
        summary: "Sign a delivery URL of one's own organisation for an hour",
        description:
          "For the website's tools under strict transformations: a member (session, signed as every panel change) or an API token of the organisation gets a delivery URL of that organisation (absolute on this server, or a path) signed for one hour with one of its signing keys (one is created if it has none). The organisation pays its own credits; no daily allowance.",
        tags: ['playground'],
        parameters: [orgIdParam],
        requestBody: jsonBody(
          object({ url: str('e.g. /v2/my-cloud/erase.bg()/products/shoe.jpg') }),
        ),
        responses: {
          '200': json(object({ url: str('The signed URL') }), 'The URL to use'),
          ...JSON_BODY_ERRORS,
          '400': failure(
            'not_playground_url: not a delivery URL of this organisation on this server; invalid_json or invalid_body',
          ),
          '401': failure('unauthenticated: no session or token'),
          '404': failure('organisation_not_found: not a member of this organisation'),
        },
      },
    },
  },
}
