// Password hashing. The target is argon2id (`@node-rs/argon2`, DESIGN §6) once that dependency
// is added; until then node:crypto scrypt (N=2^15, r=8, p=1, 16-byte salt, 32-byte key) in a
// PHC-like string `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64, no padding). The string names
// its algorithm and parameters, so hashes can be upgraded on the next login later.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const LOG_N = 15
const R = 8
const P = 1
const KEY_LENGTH = 32
const SALT_LENGTH = 16
// scrypt needs 128·N·r bytes (32 MiB here); Node's default cap is exactly 32 MiB.
const MAX_MEMORY = 64 * 1024 * 1024

function derive(password: string, salt: Buffer, logN: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: 2 ** logN, r, p, maxmem: MAX_MEMORY },
      (error, key) => (error === null ? resolve(key) : reject(error)),
    )
  })
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '')

/** A salted hash of `password` in the PHC-like form above. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH)
  const key = await derive(password, salt, LOG_N, R, P)
  return `$scrypt$ln=${LOG_N},r=${R},p=${P}$${b64(salt)}$${b64(key)}`
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

/** Whether `password` matches `hash` (constant-time compare); false for an unreadable hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const match = PHC.exec(hash)
  if (match === null) return false
  const [, logN, r, p, salt, expected] = match
  const want = Buffer.from(expected ?? '', 'base64')
  if (want.length === 0) return false
  const key = await derive(
    password,
    Buffer.from(salt ?? '', 'base64'),
    Number(logN),
    Number(r),
    Number(p),
  )
  return key.length === want.length && timingSafeEqual(key, want)
}

let dummy: Promise<string> | undefined
/** Spends the time of one verification, so an unknown email answers as slowly as a known one. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'))
  await verifyPassword(password, await dummy)
  return false
}
