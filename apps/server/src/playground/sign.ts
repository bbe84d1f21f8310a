// Visitors of the playground and the AI tool pages run operations on the demo organisation's
// images. The demo has strict transformations on (docs/decisions/005-strict-transformations.md),
// so a chain with an AI operation needs a signed URL: this module signs such a URL with a key of
// the demo organisation (behind the captcha when one is configured). What a visitor may spend is
// counted where it is spent: delivery takes each new AI render's credits (a cache miss, or a
// result evicted since; one per AI step) from the address's `ANON_AI_RUNS_PER_DAY`
// (allowance.ts), so cached examples cost nothing.
import {
  isUrlError,
  ORIGINAL_PATTERN,
  parseDeliveryPath,
  parsePattern,
  parseQueryOptions,
  signUrl,
  splitUrl,
  type UrlParts,
} from '@tessera/url'
import type { AppContext } from '../context.ts'
import type { SigningKey } from '../db/index.ts'
import { decodeFilePath } from '../delivery/resolve.ts'
import { writtenCostlyOperation } from '../delivery/strict-transformations.ts'
import { videoTargetOf } from '../delivery/video.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { assertAiCanFinish } from '../http/ai-cost.ts'
import { HttpError } from '../http/errors.ts'
import type { VisitorAllowance } from './allowance.ts'
import type { CaptchaGuard } from './captcha.ts'

/** How long a visitor's signed URL works: long enough to watch a slow operation finish. */
export const PLAYGROUND_SIGNATURE_SECONDS = 60 * 60
export const NOT_PLAYGROUND_URL_CODE = 'not_playground_url'
/** The longest URL accepted (delivery URLs are far shorter in practice). */
export const MAX_PLAYGROUND_URL_LENGTH = 4096

/** What the signer needs to know of the request. */
export interface SignRequest {
  /** The URL as the visitor sent it: absolute, or a path on this server. */
  url: string
  /** The address limits count by (`clientAddress`). */
  clientAddress: string
  /** The host the request was sent to (the page's own API base may be this server). */
  requestHost: string | undefined
  /** The captcha token the page sent (checked for chains with AI operations). */
  captchaToken?: string | undefined
}

/** A member's request to sign a delivery URL of their organisation. */
export interface MemberSignRequest {
  url: string
  requestHost: string | undefined
  organisationId: string
  cloudName: string
}

export interface SignAnswer {
  /** Signed when the chain has operations that cost credits; otherwise the URL as sent. */
  url: string
  remaining: { aiRuns: number }
}

function refuse(message: string): HttpError {
  return new HttpError(400, NOT_PLAYGROUND_URL_CODE, message)
}

const onlyOf = (cloudName: string) =>
  `Only delivery URLs of the ${cloudName} organisation on this server can be signed here`

export type PlaygroundSigner = ReturnType<typeof createPlaygroundSigner>

export function createPlaygroundSigner(
  app: Pick<AppContext, 'repo' | 'lookups' | 'config' | 'logger' | 'engine'>,
  { allowance, captcha }: { allowance: VisitorAllowance; captcha: CaptchaGuard },
) {
  const { repo, lookups, config, engine } = app

  const hostOf = (url: string | undefined) => {
    if (url === undefined) return undefined
    try {
      return new URL(url).host.toLowerCase()
    } catch {
      return undefined
    }
  }
  /** Hosts whose URLs are this server's delivery under `/v1` or `/v2`. */
  const ownHosts = new Set(
    [hostOf(config.publicUrl), hostOf(config.web.deliveryUrl), hostOf(config.web.apiUrl)].filter(
      (host): host is string => host !== undefined,
    ),
  )

  /** The URL's parts; a path is read as one on this server. */
  function partsOf(
    request: Pick<SignRequest, 'url' | 'requestHost'>,
    cloudName: string = DEMO_CLOUD_NAME,
  ): { parts: UrlParts; isPath: boolean } {
    const ONLY = onlyOf(cloudName)
    const { url } = request
    const isPath = url.startsWith('/') && !url.startsWith('//')
    let parts: UrlParts
    try {
      parts = splitUrl(isPath ? `http://playground.invalid${url}` : url)
    } catch {
      throw refuse(`${ONLY}: this is not a URL`)
    }
    if (isPath) return { parts, isPath }
    const host = parts.host.toLowerCase()
    const hostname = host.replace(/:\d+$/, '')
    const requestHost = request.requestHost?.toLowerCase()
    const known =
      ownHosts.has(host) || host === requestHost || config.deliveryHosts.includes(hostname)
    if (!known) throw refuse(`${ONLY}: ${host} is not one of its hosts`)
    return { parts, isPath }
  }

  /** The pattern of a delivery URL of `cloudName`, or a 400 for anything else. */
  function patternOf(parts: UrlParts, cloudName: string = DEMO_CLOUD_NAME): string {
    const ONLY = onlyOf(cloudName)
    const hostname = parts.host.toLowerCase().replace(/:\d+$/, '')
    // Only a configured delivery (CDN) host serves a path without `/v1` or `/v2` as delivery.
    if (!/^\/v[12]\//.test(parts.pathname) && !config.deliveryHosts.includes(hostname)) {
      throw refuse(`${ONLY}: the path is not a delivery path (/v2/${DEMO_CLOUD_NAME}/…)`)
    }
    let urlCloudName: string | undefined
    let pattern: string | undefined
    try {
      ;({ cloudName: urlCloudName, pattern } = parseDeliveryPath(parts.pathname))
    } catch (error) {
      if (isUrlError(error)) throw refuse(`${ONLY}: ${error.message}`)
      throw error
    }
    if (urlCloudName !== cloudName) {
      throw refuse(`${ONLY}: this URL belongs to another organisation`)
    }
    return pattern ?? ORIGINAL_PATTERN
  }

  /**
   * Refuses a chain whose AI steps cannot finish on the demo file it names (too many pixels, or
   * more than AI_TIMEOUT_MS by the cost estimate), so no visitor URL is signed for work the
   * queue would only run to its time limit. Delivery checks again, presets expanded.
   */
  async function assertCanFinish(parts: UrlParts, pattern: string): Promise<void> {
    const demo = await lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    const { filePath } = parseDeliveryPath(parts.pathname)
    if (demo === undefined || filePath === undefined) return
    const file = await lookups.file(demo.id, decodeFilePath(filePath))
    if (file === undefined) return
    const { value } = parsePattern(pattern, { format: file.format })
    // `dpr=auto` is rendered at the page's hint, unknown here, and a bad query is delivery's
    // 400: both are judged there.
    let dpr = 1
    try {
      const { dpr: given } = parseQueryOptions(parts.search)
      if (typeof given === 'number') dpr = given
    } catch {}
    assertAiCanFinish(engine, value, file, dpr)
  }

  /**
   * Whether the chain makes a video of the demo file it names (a video job costs credits, so
   * strict transformations ask a signature of it, as of an AI chain; delivery/video.ts).
   */
  async function makesVideo(parts: UrlParts, pattern: string): Promise<boolean> {
    const demo = await lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    const { filePath } = parseDeliveryPath(parts.pathname)
    if (demo === undefined || filePath === undefined) return false
    const file = await lookups.file(demo.id, decodeFilePath(filePath))
    if (file === undefined) return false
    const { value } = parsePattern(pattern, { format: file.format })
    try {
      return videoTargetOf(file, value, { accept: undefined, autoFormat: false })?.job === true
    } catch {
      // An image asked as a video: delivery answers the 400, signed or not.
      return false
    }
  }

  async function demoKey(): Promise<SigningKey> {
    const demo = await lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    if (demo === undefined) {
      throw new HttpError(404, 'not_available', 'This server has no demo organisation to sign for')
    }
    // The demo seed creates a key; one revoked since is replaced rather than failing visitors.
    return keyOf(demo.id)
  }

  async function keyOf(organisationId: string): Promise<SigningKey> {
    const [key] = await repo.listSigningKeys(organisationId)
    return key ?? (await repo.createSigningKey(organisationId))
  }

  async function signWith(
    key: SigningKey,
    parts: UrlParts,
    isPath: boolean,
    cloudName: string = DEMO_CLOUD_NAME,
  ): Promise<string> {
    const ONLY = onlyOf(cloudName)
    let signed: string
    try {
      signed = await signUrl(`${parts.protocol}//${parts.host}${parts.pathname}${parts.search}`, {
        accessKey: key.accessKey,
        token: key.secret,
        expirySeconds: PLAYGROUND_SIGNATURE_SECONDS,
      })
    } catch (error) {
      if (isUrlError(error)) throw refuse(`${ONLY}: ${error.message}`)
      throw error
    }
    return isPath ? signed.slice(`${parts.protocol}//${parts.host}`.length) : signed
  }

  /**
   * Signs a demo delivery URL whose chain writes an operation that costs credits, or makes a
   * video (after the captcha, when one is configured); any other demo URL comes back as sent. Nothing is counted
   * here: delivery counts the AI renders it starts (cache misses) against the daily allowance.
   *
   * @throws {HttpError} 400 `not_playground_url` for anything but a demo delivery URL of this
   *   server; the captcha's 400/403/503; 422 `image_too_large` for AI work that cannot finish.
   */
  async function sign(request: SignRequest): Promise<SignAnswer> {
    const { parts, isPath } = partsOf(request)
    const pattern = patternOf(parts)
    // The chain is read as written; a `p:` preset's operations were chosen by the organisation.
    const costly =
      pattern === ORIGINAL_PATTERN ? undefined : writtenCostlyOperation(parsePattern(pattern).value)
    const left = () => allowance.remaining('ai', request.clientAddress)
    const video = costly === undefined && pattern !== ORIGINAL_PATTERN
    if (costly === undefined && !(video && (await makesVideo(parts, pattern)))) {
      return { url: request.url, remaining: { aiRuns: await left() } }
    }
    await captcha.verify(request.captchaToken, request.clientAddress)
    await assertCanFinish(parts, pattern)
    const url = await signWith(await demoKey(), parts, isPath)
    return { url, remaining: { aiRuns: await left() } }
  }

  /**
   * Signs a delivery URL of a member's own organisation for an hour with one of its signing keys
   * (one is created if it has none), so the website's tools run the member's AI operations under
   * strict transformations. Credits are the organisation's own: no daily allowance.
   *
   * @throws {HttpError} 400 `not_playground_url` for anything but a delivery URL of that
   *   organisation on this server.
   */
  async function signForMember(request: MemberSignRequest): Promise<{ url: string }> {
    const { parts, isPath } = partsOf(request, request.cloudName)
    patternOf(parts, request.cloudName)
    const key = await keyOf(request.organisationId)
    return { url: await signWith(key, parts, isPath, request.cloudName) }
  }

  return { sign, signForMember }
}
