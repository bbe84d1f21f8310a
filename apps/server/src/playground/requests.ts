// What the playground's signing calls read, validated by `routes.ts` and declared with the same
// schema in `openapi.ts` (decision 013).
import { z } from 'zod'
import { MAX_PLAYGROUND_URL_LENGTH } from './sign.ts'

export const signBody = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(MAX_PLAYGROUND_URL_LENGTH)
    .describe('A delivery URL (absolute on this server, or a path)'),
})
