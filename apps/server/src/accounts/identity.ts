// Identity's rules (DESIGN §6, SPEC §3): what a password must be, what profile meta may hold,
// how a new account's cloud name is made, and how many failed logins are allowed.
import { randomBytes } from 'node:crypto'
import { HttpError } from '../http/errors.ts'
import { hasLoneSurrogate } from '../http/text.ts'

export const MAX_PROFILE_META_BYTES = 16 * 1024
export const MAX_PROFILE_META_DEPTH = 32
export const PASSWORD_MIN = 10
export const PASSWORD_MAX = 128
/**
 * Failed logins allowed in the window before 429 (OWASP: limit guesses without letting anyone lock
 * a user out): per account from one address, per address over all accounts, and per account over
 * all addresses. Past the account-wide limit (a distributed guess), an address that has failed on
 * the account once in the window is refused; one that has not is still let through, so the owner
 * with the right password gets in whatever others try.
 */
export const LOGIN_LIMITS = {
  perAccountAndAddress: 5,
  perAddress: 30,
  perAccount: 100,
  windowMs: 15 * 60_000,
}

/** The reason `candidate` is not an acceptable password for `forEmail`, or undefined. */
export function passwordProblem(candidate: string, forEmail: string): string | undefined {
  const length = [...candidate].length
  if (length < PASSWORD_MIN) return `password must be at least ${PASSWORD_MIN} characters`
  if (length > PASSWORD_MAX) return `password must be at most ${PASSWORD_MAX} characters`
  if (new Set(candidate).size === 1) return 'password must not be one character repeated'
  if (candidate.trim().toLowerCase() === forEmail) return 'password must not be the email address'
  return undefined
}

/** Checks what jsonb can store: well-formed strings without NUL, bounded nesting. */
export function checkMeta(value: unknown, depth = 0): void {
  if (depth > MAX_PROFILE_META_DEPTH) {
    throw new HttpError(
      400,
      'invalid_body',
      `Profile meta nests deeper than ${MAX_PROFILE_META_DEPTH}`,
    )
  }
  const badText = (text: string) => hasLoneSurrogate(text) || text.includes('\u0000')
  if (typeof value === 'string' && badText(value)) {
    throw new HttpError(400, 'invalid_body', 'Profile meta holds a NUL or unpaired surrogate')
  }
  if (Array.isArray(value)) for (const item of value) checkMeta(item, depth + 1)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      checkMeta(key, depth + 1)
      checkMeta(item, depth + 1)
    }
  }
}

/** A cloud name from the first name: `[a-z0-9-]`, at most 20 characters, then `-` and 6 random. */
export function cloudNameFor(firstName: string): string {
  const base =
    firstName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 20)
      .replace(/-+$/, '') || 'user'
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  const suffix = [...randomBytes(6)].map((byte) => alphabet[byte % alphabet.length]).join('')
  return `${base}-${suffix}`
}

// ── recovery and account changes (decision 019) ─────────────────────────────────────────────

/** A reset link works once, for this long. */
export const RESET_TTL_MS = 30 * 60_000
/** Recovery mails asked for, per window: per client address and per target address. */
export const RECOVERY_LIMITS = { perAddress: 10, perEmail: 3, windowMs: 60 * 60_000 }
/** Wrong current passwords on account changes, per user per window. */
export const CONFIRM_LIMITS = { perUser: 5, windowMs: 15 * 60_000 }
/** How many outbox mails the operators' page shows. */
export const OUTBOX_PAGE = 50

/** The answer of every forgot-password request, known address or not. */
export const FORGOT_ANSWER = {
  message: 'If an account uses this address, a link to reset its password is on its way.',
}
