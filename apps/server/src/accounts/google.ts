// Google one-tap sign-in (DESIGN §6): the browser receives an ID token (a JWT signed by Google)
// and posts it here; we verify its signature against Google's published keys, its issuer, its
// audience (our client id) and its expiry. Off when no client id is configured.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose'
import { HttpError } from '../http/errors.ts'

export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com']

/** What an ID token vouches for. */
export interface GoogleIdentity {
  sub: string
  email: string
  emailVerified: boolean
  givenName: string | undefined
  familyName: string | undefined
}

export type GoogleVerifier = (credential: string) => Promise<GoogleIdentity>

/** A verifier for ID tokens issued to `clientId`, with keys from `jwksUrl` (cached by jose). */
export function createGoogleVerifier(options: {
  clientId: string
  jwksUrl: string
}): GoogleVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), { timeoutDuration: 5000 })
  return async (credential) => {
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload']
    try {
      ;({ payload } = await jwtVerify(credential, keys, {
        issuer: GOOGLE_ISSUERS,
        audience: options.clientId,
        algorithms: ['RS256'],
        clockTolerance: 30,
      }))
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || error instanceof errors.JOSEError === false) {
        throw new HttpError(
          503,
          'google_unavailable',
          "Google's signing keys could not be fetched: try again",
        )
      }
      const reason = error instanceof errors.JWTExpired ? 'has expired' : 'is not valid'
      throw new HttpError(401, 'invalid_google_token', `The Google credential ${reason}`)
    }
    const { sub, email } = payload
    if (typeof sub !== 'string' || sub === '' || typeof email !== 'string' || email === '') {
      throw new HttpError(401, 'invalid_google_token', 'The Google credential names no account')
    }
    const text = (value: unknown) =>
      typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
    return {
      sub,
      email: email.trim().toLowerCase(),
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      givenName: text(payload.given_name),
      familyName: text(payload.family_name),
    }
  }
}
