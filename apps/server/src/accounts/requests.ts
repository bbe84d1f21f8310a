// What the account calls read: their JSON bodies, validated by the route modules
// (`identity-routes.ts`, `member-routes.ts`, `organisation-routes.ts`) and declared with the same
// schemas in the OpenAPI parts (decision 013).
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../db/index.ts'
import { MAX_CORS_ORIGINS, normaliseOrigin } from '../delivery/cors.ts'
import { labelText } from '../http/text.ts'

/** 3 to 40 of a-z, 0-9 and -, not starting or ending with a hyphen. */
export const CLOUD_NAME = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/

const emailAddress = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be an email address' }))
  .meta({ format: 'email' })

const email = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be an email address' }))
  .meta({ format: 'email' })

const personName = labelText(100)

const password = z.string({ error: 'must be a string' }).min(1, 'is required')

export const signupBody = z.object({
  email,
  password: password.describe('10–128 characters, not one character repeated, not the email'),
  firstName: personName,
  lastName: personName,
})
export const googleBody = z.object({
  credential: z
    .string({ error: 'must be a string' })
    .min(1, 'is required')
    .max(8192, 'is too long')
    .describe('The ID token (JWT) Google gave the page'),
})
export const loginBody = z.object({ email, password: password.max(1024, 'is too long') })

const ROLE = z.enum(MEMBERSHIP_ROLES, {
  error: `must be one of ${MEMBERSHIP_ROLES.map((role) => `'${role}'`).join(', ')}`,
})

export const invitationBody = z
  .object({ email: emailAddress, role: ROLE.default('member') })
  .strict()
export const roleBody = z.object({ role: ROLE }).strict()
export const acceptBody = z
  .object({ token: z.string({ error: 'must be a string' }).max(200) })
  .strict()

const LABEL = labelText(100)

export const organisationChanges = z
  .object({
    name: LABEL.optional(),
    cloudName: z
      .string({ error: 'must be a string' })
      .trim()
      .toLowerCase()
      .regex(
        CLOUD_NAME,
        'must be 3 to 40 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
      )
      .describe('3–40 of a-z, 0-9 and -')
      .optional(),
  })
  .strict()
export const tokenBody = z.object({ name: LABEL.describe('A label, 1–100 characters') }).strict()
const SETTING = z.boolean({ error: 'must be true or false' }).optional()
/** `['*']`, a list of origins, or `[]` (delivery's CORS, `delivery/cors.ts`). */
export const corsOriginsSetting = z
  .array(z.string({ error: 'must be a list of strings' }).max(300, 'is too long'), {
    error: "must be a list: ['*'] or origins like 'https://shop.example.com'",
  })
  .max(MAX_CORS_ORIGINS, `may list at most ${MAX_CORS_ORIGINS} origins`)
  .transform((values, context) => {
    const origins: string[] = []
    for (const value of values) {
      const origin = normaliseOrigin(value)
      if (origin === undefined) {
        context.addIssue({
          code: 'custom',
          message: `'${value}' is not '*' or an origin like https://shop.example.com`,
        })
        return z.NEVER
      }
      if (!origins.includes(origin)) origins.push(origin)
    }
    if (origins.includes('*') && origins.length > 1) {
      context.addIssue({ code: 'custom', message: "'*' allows every origin: list it alone" })
      return z.NEVER
    }
    return origins
  })
  .describe("Who may read delivered images from another site: ['*'] (anyone), origins, or []")

export const settingsBody = z
  .object({
    requireSignedUrls: SETTING,
    strictTransformations: SETTING,
    allowRawFiles: SETTING,
    corsOrigins: corsOriginsSetting.optional(),
  })
  .strict()

// ── account recovery and settings (decision 019) ─────────────────────────────────────────────

const mailedToken = z
  .string({ error: 'must be a string' })
  .min(1, 'is required')
  .max(200, 'is too long')
  .describe('The token of the mailed link')

export const forgotBody = z.object({ email }).strict()
export const resetBody = z
  .object({
    token: mailedToken,
    password: password
      .max(1024, 'is too long')
      .describe('The new password (same rules as sign-up)'),
  })
  .strict()
export const verifyBody = z.object({ token: mailedToken }).strict()
export const changePasswordBody = z
  .object({
    currentPassword: password.max(1024, 'is too long'),
    newPassword: password.max(1024, 'is too long').describe('Same rules as sign-up'),
  })
  .strict()
export const changeEmailBody = z
  .object({
    email: email.describe('The new address: a link is mailed to it'),
    password: z
      .string({ error: 'must be a string' })
      .max(1024, 'is too long')
      .describe('The current password (accounts without one: empty)'),
  })
  .strict()
export const deleteAccountBody = z
  .object({
    email: email.describe("The account's address, typed again to confirm"),
    password: z
      .string({ error: 'must be a string' })
      .max(1024, 'is too long')
      .describe('The current password (accounts without one: empty)'),
  })
  .strict()
