// The declared calls of the playground: signing demo URLs, visitor uploads, member signing.
import { z } from 'zod'
import {
  type ApiPart,
  calls,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  orgIdParam,
  ref,
} from '../http/openapi-kit.ts'

import { MEMBER_PLAYGROUND, PUBLIC_PLAYGROUND } from './paths.ts'
import { signBody } from './requests.ts'

/** The captcha token a visitor's call carries when a captcha is configured. */
const captchaHeader = z.object({
  'x-captcha-token': z
    .string()
    .describe('The captcha widget token (only when a captcha is configured)')
    .optional(),
})

const playground = calls('', 'playground')

/** What a visitor's call answers when the captcha or the demo organisation is missing. */
const VISITOR_ERRORS = {
  '403': failure('captcha_failed: the captcha token was refused'),
  '404': failure('not_available: this server has no demo organisation'),
  '503': failure('captcha_unavailable: the captcha could not be checked'),
}

export const PLAYGROUND_OPENAPI: ApiPart = {
  tags: [
    {
      name: 'playground',
      description: 'Visitor calls of the playground and AI tool pages on the demo organisation',
    },
  ],
  schemas: {
    VisitorUpload: z.object({
      file: z.object({
        path: z
          .string()
          .describe('e.g. visitor-uploads/{random}/photo.png, in the demo organisation'),
        url: z.string().describe('Its delivery URL (original)'),
        width: z.int(),
        height: z.int(),
        format: z.string().describe('png, jpeg, webp, …'),
        size: z.int().describe('Bytes'),
      }),
      expiresAt: z.string().describe('When housekeeping deletes it (24 h after the upload)'),
      remaining: z.object({
        uploads: z.int().describe('Uploads this address has left today'),
        aiRuns: z
          .int()
          .describe('Credits of new AI renders this address has left today (one per AI step)'),
      }),
    }),
    PlaygroundSigned: z.object({
      url: z
        .string()
        .describe('The URL signed for an hour, or as sent when its chain has no AI operation'),
      remaining: z.object({
        aiRuns: z
          .int()
          .describe('Credits of new AI renders this address has left today (one per AI step)'),
      }),
    }),
  },
  routes: [
    playground.post(`${PUBLIC_PLAYGROUND}/sign`, 'signPlaygroundUrl', {
      summary: 'Sign a demo delivery URL whose chain has AI operations',
      description:
        "The demo organisation has strict transformations on. A delivery URL of the demo organisation (absolute on this server, or a path) whose chain writes an operation that costs credits comes back signed with a demo key for one hour; any other demo URL comes back as sent. Signing counts nothing: delivery counts each new AI render of the demo (a cache miss, not a cached image nor a poll of a queued one) against ANON_AI_RUNS_PER_DAY of the client address and answers 429 daily_limit_exceeded past it. With a captcha configured (WEB_CAPTCHA_SITE_KEY) a chain with AI operations needs the widget's token in x-captcha-token. No session.",
      headers: captchaHeader,
      body: {
        schema: signBody,
        example: { url: '/v2/demo/ic.crop(w:300,h:300)/samples/astronaut.png' },
      },
      responses: {
        '200': { description: 'The URL to use', schema: ref('PlaygroundSigned') },
        '400': failure(
          'not_playground_url: not a delivery URL of the demo organisation on this server; invalid_json or invalid_body; captcha_required',
        ),
        ...VISITOR_ERRORS,
        ...JSON_BODY_LIMITS,
      },
    }),
    playground.post(`${PUBLIC_PLAYGROUND}/uploads`, 'uploadAsVisitor', {
      summary: 'Upload an image to try the tools on, kept 24 hours',
      description:
        "Multipart with a `file` part. The image goes to a folder of its own in the demo organisation (visitor-uploads/{random}/), passes every check of uploadDirect (UPLOAD_MAX_BYTES, MAX_INPUT_PIXELS, SVG safety; images only) and is deleted with its derived images by housekeeping 24 hours later. At most ANON_UPLOADS_PER_DAY per client address per day, and ANON_UPLOADS_MAX_BYTES for all visitors' uploads of the last 24 h, both taken before the body is read (refusals do not count). With a captcha configured (WEB_CAPTCHA_SITE_KEY) the widget's token goes in x-captcha-token. No session.",
      headers: captchaHeader,
      body: {
        content: { 'multipart/form-data': { schema: z.object({ file: formatted('binary') }) } },
      },
      responses: {
        '201': { description: 'The stored image', schema: ref('VisitorUpload') },
        '400': failure(
          'invalid_multipart (malformed, cut short or interrupted), missing_file, too_many_parts…; captcha_required',
        ),
        ...VISITOR_ERRORS,
        '413': failure('too_large: larger than UPLOAD_MAX_BYTES; image_too_large'),
        '415': failure(
          'unsupported_media_type (not multipart), unsupported_type (not an image) or extension_mismatch',
        ),
        '422': failure('Corrupt image or too many pixels'),
        '429': {
          description: 'daily_limit_exceeded: this address used its uploads for today',
          schema: ref('Error'),
          headers: {
            'Retry-After': { description: 'Seconds until an upload frees up', schema: z.int() },
          },
        },
        '507': {
          description:
            "visitor_storage_full: all visitors' uploads of the last 24 h fill ANON_UPLOADS_MAX_BYTES",
          schema: ref('Error'),
          headers: {
            'Retry-After': { description: 'Seconds until room frees up', schema: z.int() },
          },
        },
      },
    }),
    playground.post(`${MEMBER_PLAYGROUND}/{orgId}/sign`, 'signMemberUrl', {
      access: { role: 'member' },
      summary: "Sign a delivery URL of one's own organisation for an hour",
      description:
        "For the website's tools under strict transformations: a member (session, signed as every panel change) or an API token of the organisation gets a delivery URL of that organisation (absolute on this server, or a path) signed for one hour with one of its signing keys (one is created if it has none). The organisation pays its own credits; no daily allowance.",
      params: { orgId: orgIdParam },
      body: { schema: signBody, example: { url: '/v2/my-cloud/erase.bg()/products/shoe.jpg' } },
      responses: {
        '200': {
          description: 'The URL to use',
          schema: z.object({ url: z.string().describe('The signed URL') }),
        },
        '400': failure(
          'not_playground_url: not a delivery URL of this organisation on this server; invalid_json or invalid_body',
        ),
        '401': failure('unauthenticated: no session or token'),
        '404': failure('organisation_not_found: not a member of this organisation'),
        ...JSON_BODY_LIMITS,
      },
    }),
  ],
}
