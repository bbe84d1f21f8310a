// The settings' fixed parts: the boot error and the defaults other modules name.

/** Thrown at boot when an environment variable has a value the server cannot use. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

export const DEFAULT_PORT = 4201
export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_FREE_PLAN_ID = -994
/**
 * The panel request-signing key when none is configured. Like Pixelbin's, the key is shipped to
 * browsers in the runtime configuration: the signature proves a request was not altered or
 * replayed, the session proves who sent it (DESIGN §6).
 */
export const DEFAULT_PANEL_SIGNING_KEY = 'tessera-panel-signing-key-v1'
export const DEFAULT_GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs'
/** Cloudflare Turnstile's server-side token check. */
export const DEFAULT_CAPTCHA_VERIFY_URL =
  'https://challenges.cloudflare.com/turnstile/v0/siteverify'
