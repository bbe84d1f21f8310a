// What the domain calls read: their JSON bodies, validated by `routes.ts` and declared with the
// same schemas in `openapi.ts` (decision 013).
import { z } from 'zod'

export const domainBody = z
  .object({
    host: z
      .string({ error: 'must be a string' })
      .min(1, 'is required')
      .max(253, 'is too long')
      .describe('The host name, e.g. img.example.com'),
  })
  .strict()
