// Password hashing: argon2id (`@node-rs/argon2`, DESIGN §6) with OWASP's baseline parameters
// (19 MiB, 2 passes, 1 lane). The PHC string records the parameters, so raising them later
// only needs `needsRehash` at the next login.
import { randomBytes } from 'node:crypto'
import { type Algorithm, hash, verify } from '@node-rs/argon2'

// `Algorithm` is an ambient const enum, which type stripping cannot inline: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

const CURRENT = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`

/** A salted argon2id hash of `password` (NFC-normalised) as a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), ARGON2_OPTIONS)
}

/** Whether `password` matches `hashed`; false for a missing or unreadable hash. */
export async function verifyPassword(password: string, hashed: string | null): Promise<boolean> {
  if (hashed === null || !hashed.startsWith('$argon2')) return false
  try {
    return await verify(hashed, password.normalize('NFC'))
  } catch {
    return false
  }
}

/** Whether a stored hash was made with other parameters than today's. */
export function needsRehash(hashed: string): boolean {
  return !hashed.startsWith(CURRENT)
}

let dummy: Promise<string> | undefined
/** Spends the time of one verification, so an unknown email answers as slowly as a known one. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'))
  await verifyPassword(password, await dummy)
  return false
}
