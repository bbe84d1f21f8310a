// The captcha of the visitor calls (uploads and AI signing): on when `WEB_CAPTCHA_SITE_KEY` is
// set. The page's widget (Cloudflare Turnstile, or anything speaking its siteverify API, such as
// hCaptcha's compatible endpoint) gives a one-use token, sent as `x-captcha-token`; the server
// checks it against `CAPTCHA_VERIFY_URL` with `CAPTCHA_SECRET` before doing anything else. A
// passed token counts only when it was solved on one of this server's own hosts (`hostname`),
// and, for a guard that names one, for that action (`action`): a token solved on another site
// with a leaked site key, or for another form, is refused.
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'

export const CAPTCHA_HEADER = 'x-captcha-token'
/** How long the verify call may take before the visitor is told to try again. */
export const CAPTCHA_VERIFY_TIMEOUT_MS = 10_000
/** Tokens longer than this are refused unread (Turnstile's are at most 2048 characters). */
export const MAX_CAPTCHA_TOKEN_LENGTH = 4096

export type CaptchaGuard = ReturnType<typeof createCaptchaGuard>

/** The hostnames of this server's own pages, where its captcha widget may be solved. */
export function captchaHostnames(config: AppContext['config']): Set<string> {
  const urls = [config.publicUrl, config.web.mainUrl, config.web.consoleUrl, config.web.apiUrl]
  const hostnames = new Set<string>()
  for (const url of urls) {
    if (url === undefined) continue
    try {
      hostnames.add(new URL(url).hostname.toLowerCase())
    } catch {
      // A relative URL (the console under this origin) adds no host.
    }
  }
  return hostnames
}

export function createCaptchaGuard(
  app: Pick<AppContext, 'config' | 'logger'>,
  options: { action?: string } = {},
) {
  const settings = app.config.captcha
  const hostnames = captchaHostnames(app.config)

  /**
   * Checks the visitor's captcha token; does nothing when no site key is configured.
   *
   * @throws {HttpError} 400 `captcha_required` without a token, 403 `captcha_failed` for a token
   *   the provider refuses, 503 `captcha_unavailable` when the provider cannot be asked.
   */
  async function verify(token: string | undefined, clientAddress: string): Promise<void> {
    if (settings === undefined) return
    if (token === undefined || token.trim() === '') {
      throw new HttpError(
        400,
        'captcha_required',
        `Complete the captcha first (its token goes in ${CAPTCHA_HEADER})`,
      )
    }
    if (token.length > MAX_CAPTCHA_TOKEN_LENGTH) {
      throw new HttpError(403, 'captcha_failed', 'The captcha was not passed; try it again')
    }
    const form = new URLSearchParams({
      secret: settings.secret,
      response: token,
      remoteip: clientAddress,
    })
    let answer: {
      success?: unknown
      'error-codes'?: unknown
      hostname?: unknown
      action?: unknown
    }
    try {
      const response = await fetch(settings.verifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(CAPTCHA_VERIFY_TIMEOUT_MS),
      })
      if (!response.ok) throw new Error(`the captcha check answered ${response.status}`)
      answer = (await response.json()) as typeof answer
    } catch (error) {
      app.logger.warn({ err: error }, 'the captcha check could not be made')
      throw new HttpError(
        503,
        'captcha_unavailable',
        'The captcha could not be checked just now; try again in a moment',
      )
    }
    const hostname = typeof answer?.hostname === 'string' ? answer.hostname.toLowerCase() : ''
    const solvedHere = hostnames.has(hostname)
    const forThis = options.action === undefined || answer?.action === options.action
    if (answer?.success !== true || !solvedHere || !forThis) {
      if (answer?.success === true) {
        app.logger.warn(
          { hostname: answer.hostname, action: answer.action },
          'a captcha token solved elsewhere or for another form was refused',
        )
      }
      throw new HttpError(403, 'captcha_failed', 'The captcha was not passed; try it again')
    }
  }

  return { verify, enabled: settings !== undefined }
}
