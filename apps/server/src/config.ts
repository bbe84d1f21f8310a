import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { type AiSettings, resolveAiSettings } from '@tessera/engine'
import { z } from 'zod'
import type { WebSettings } from './http/web-settings.ts'

/** Thrown at boot when an environment variable has a value the server cannot use. */
export type { WebSettings } from './http/web-settings.ts'

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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

const integer = (min: number, max: number, fallback: number, what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
      .transform(Number)
      .refine((n) => n >= min && n <= max, `must be a whole number from ${min} to ${max}`)
      .optional()
      .transform((n) => n ?? fallback)
      .describe(what),
  )

const flag = (fallback: boolean) =>
  z.preprocess(
    blankToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
      .optional()
      .transform((value) =>
        value === undefined ? fallback : ['true', '1', 'yes'].includes(value),
      ),
  )

const list = z.preprocess(
  blankToUndefined,
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter((item) => item !== ''),
    ),
)

const text = z.preprocess(blankToUndefined, z.string().trim().optional())

const httpUrl = z.preprocess(
  blankToUndefined,
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional()
    .transform((value) => value?.replace(/\/+$/, '')),
)

const ENV = z.object({
  PORT: integer(1, 65535, DEFAULT_PORT, 'TCP port'),
  HOST: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^[^\s/]+$/, 'must be a host name or IP address')
      .optional()
      .transform((value) => value ?? DEFAULT_HOST),
  ),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
  DATA_DIR: text,
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  STORAGE_DRIVER: z.preprocess(
    blankToUndefined,
    z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  ),
  STORAGE_DIR: text,
  S3_BUCKET: text,
  S3_REGION: text,
  S3_ENDPOINT: httpUrl,
  S3_ACCESS_KEY_ID: text,
  S3_SECRET_ACCESS_KEY: text,
  S3_FORCE_PATH_STYLE: flag(false),
  S3_PREFIX: text,
  PUBLIC_URL: httpUrl,
  DELIVERY_HOSTS: list,
  CACHE_MAX_AGE: integer(0, 31_536_000, 86_400, 'seconds'),
  UPLOAD_MAX_BYTES: integer(1, 2 ** 40, 50 * 1024 * 1024, 'bytes'),
  REMOTE_TIMEOUT_MS: integer(100, 600_000, 15_000, 'ms'),
  REMOTE_ALLOW_HOSTS: list,
  MAX_INPUT_PIXELS: integer(1, 2 ** 40, 50_000_000, 'pixels'),
  MAX_OUTPUT_DIMENSION: integer(1, 100_000, 10_000, 'pixels'),
  MAX_INPUT_BYTES: integer(1, 2 ** 40, 50 * 1024 * 1024, 'bytes'),
  ENGINE_TIMEOUT_MS: integer(100, 3_600_000, 30_000, 'ms'),
  // Two one-thread pipelines per core: one computes while another decodes, encodes or waits for
  // storage (with one per core the uncached delivery bench ran 17–27 % slower; docs/benchmarks.md).
  ENGINE_CONCURRENCY: integer(1, 1024, 2 * availableParallelism(), 'pipelines'),
  JOB_POLL_MS: integer(10, 60_000, 250, 'ms'),
  JOB_HEARTBEAT_MS: integer(10, 600_000, 5_000, 'ms'),
  JOB_STALE_AFTER_MS: integer(30, 3_600_000, 30_000, 'ms'),
  LOOKUP_TTL_MS: integer(0, 3_600_000, 5_000, 'ms'),
  HOT_CACHE_MB: integer(0, 1_000_000, 64, 'MiB'),
  SEED_DEMO: flag(true),
  // The SSR output cache of anonymous pages (issue 14).
  PAGE_CACHE_MB: integer(0, 1_000_000, 32, 'MiB'),
  PAGE_CACHE_ENTRIES: integer(0, 1_000_000, 1000, 'pages'),
  PAGE_CACHE_SECONDS: integer(0, 86_400, 60, 'seconds'),
  // Derived-image cache budget, largest derived image kept, cache misses per client address.
  DERIVED_CACHE_MAX_BYTES: integer(0, 2 ** 50, 4 * 1024 ** 3, 'bytes'),
  DERIVED_STORE_MAX_BYTES: integer(0, 2 ** 40, 32 * 1024 ** 2, 'bytes'),
  RENDER_LIMIT_PER_MINUTE: integer(0, 1_000_000, 600, 'renders per address'),
  TRUSTED_PROXIES: z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((item) => item.trim().toLowerCase())
          .filter((item) => item !== ''),
      )
      .refine((items) => items.every((item) => isIP(item) !== 0), {
        error: 'must be a comma-separated list of IP addresses',
      }),
  ),
  METRICS_TOKEN: z.preprocess(
    blankToUndefined,
    z.string().trim().min(16, 'must be at least 16 characters').optional(),
  ),
  PANEL_SIGNING_KEY: z.preprocess(
    blankToUndefined,
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  SIGNATURE_MAX_AGE_S: integer(1, 86_400, 300, 'seconds'),
  GOOGLE_CLIENT_ID: text,
  GOOGLE_JWKS_URL: httpUrl,
  PAYMENT_PROVIDER: z.preprocess(
    blankToUndefined,
    // No default here: unset, it follows PUBLIC_URL (`defaultPaymentProvider`).
    z.enum(['test', 'off'], { error: 'must be test or off' }).optional(),
  ),
  FREE_PLAN_ID: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'must be a whole number')
      .transform(Number)
      .optional()
      .transform((n) => n ?? DEFAULT_FREE_PLAN_ID),
  ),
  FREE_PLAN_CREDITS: integer(0, 1_000_000_000, 50, 'credits'),
  SIGNUP_LIMIT_PER_HOUR: integer(1, 1_000_000, 10, 'sign-ups per address'),
  ANON_AI_RUNS_PER_DAY: integer(1, 1_000_000, 20, 'AI runs per address'),
  ANON_UPLOADS_PER_DAY: integer(1, 1_000_000, 20, 'uploads per address'),
  ANON_UPLOADS_MAX_BYTES: integer(1, 2 ** 50, 1024 * 1024 * 1024, 'bytes'),
  CONTACT_LIMIT_PER_HOUR: integer(1, 1_000_000, 5, 'messages per address'),
  // Captcha (Cloudflare Turnstile's API) on visitor uploads and AI signing: on with a site key.
  CAPTCHA_SECRET: text,
  CAPTCHA_VERIFY_URL: httpUrl,
  // The website and console (apps/web): bases and browser-side keys of the runtime configuration.
  WEB_MAIN_URL: httpUrl,
  WEB_CONSOLE_URL: webUrl(),
  WEB_API_URL: httpUrl,
  WEB_DELIVERY_URL: httpUrl,
  WEB_WEBHOOK_URL: httpUrl,
  WEB_CMS_URL: webUrl(),
  WEB_DOCS_URL: httpUrl,
  WEB_BLOG_URL: httpUrl,
  WEB_SCHEDULER_URL: webUrl(),
  WEB_SUPPORT_URL: webUrl(),
  WEB_AFFILIATE_URL: webUrl(),
  WEB_ANALYTICS_ID: text,
  WEB_CHAT_TOKEN: text,
  WEB_ERROR_REPORTING_DSN: httpUrl,
  WEB_CAPTCHA_SITE_KEY: text,
  WEB_PAYMENTS_CLIENT_TOKEN: text,
  WEB_PRODUCT_TAG: text,
  WEB_TOOL_BACKGROUND_REMOVER_URL: webUrl(),
  WEB_TOOL_UPSCALER_URL: webUrl(),
  WEB_TOOL_WATERMARK_REMOVER_URL: webUrl(),
  WEB_TOOL_COMPRESSOR_URL: webUrl(),
  WEB_TOOL_CONVERTER_URL: webUrl(),
  WEB_IOS_APP_URL: httpUrl,
  WEB_ANDROID_APP_URL: httpUrl,
  // Script addresses of the third-party integrations (tests point them at local stand-ins).
  WEB_GOOGLE_SCRIPT_URL: httpUrl,
  WEB_ANALYTICS_SCRIPT_URL: httpUrl,
  WEB_CHAT_SCRIPT_URL: httpUrl,
  WEB_CAPTCHA_SCRIPT_URL: httpUrl,
})

/** Server settings, read once from the environment at boot. */
export interface ServerConfig {
  port: number
  host: string
  logLevel: (typeof LOG_LEVELS)[number]
  /** Folder for the embedded database and local storage (`DATA_DIR`, default `./data`). */
  dataDir: string
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir/db` is used. */
  databaseUrl: string | undefined
  storage:
    | { driver: 'local'; root: string }
    | {
        driver: 's3'
        bucket: string
        region: string
        endpoint: string | undefined
        accessKeyId: string | undefined
        secretAccessKey: string | undefined
        forcePathStyle: boolean
        prefix: string | undefined
      }
  /** Base URL written into delivery links (`PUBLIC_URL`, default `http://localhost:PORT`). */
  publicUrl: string
  /** Hosts whose every request is delivery (a CDN host), lower-case. */
  deliveryHosts: string[]
  /** `Cache-Control: max-age` of delivered images, seconds. */
  cacheMaxAge: number
  uploadMaxBytes: number
  remote: { timeoutMs: number; allowHosts: string[]; maxBytes: number }
  engine: {
    maxInputPixels: number
    maxOutputDimension: number
    maxInputBytes: number
    timeoutMs: number
    concurrency: number
    /** The AI service's settings (`AI_CONCURRENCY`, `AI_TIMEOUT_MS`, `AI_MAX_INPUT_PIXELS`, …). */
    aiSettings: AiSettings
  }
  jobPollMs: number
  /** How often a running job's lock is refreshed, and after how long without one it is taken over. */
  jobs: { heartbeatMs: number; staleAfterMs: number }
  /** How long this process trusts organisation, zone and file rows it has read (ms). */
  lookupTtlMs: number
  /** Memory for the bytes of recently served derived images. */
  hotCacheBytes: number
  /**
   * Derived-image cache: stored bytes kept in all (least recently used evicted first), and the
   * largest derived image stored (larger ones are answered, not kept).
   */
  derivedCache: { maxBytes: number; storeMaxBytes: number }
  /** Cache misses (renders) allowed per client address per minute; 0 turns the limit off. */
  renderLimitPerMinute: number
  /**
   * Addresses of the load balancers in front (`TRUSTED_PROXIES`): from these peers the client
   * address is read from `X-Forwarded-For`; from any other peer the header is ignored.
   */
  trustedProxies: string[]
  /** Bearer token `/metrics` requires; when absent it answers loopback clients only. */
  metricsToken: string | undefined
  seedDemo: boolean
  /** The SSR output cache of anonymous pages: bytes (0 turns it off), pages, seconds. */
  pageCache: { maxBytes: number; maxEntries: number; maxAgeSeconds: number }
  /** Request signing of panel calls (`x-ebg-param` / `x-ebg-signature`, SPEC §7.1). */
  signing: { key: string; maxAgeSeconds: number }
  /** Google one-tap sign-in; off when no client id is configured. */
  google: { clientId: string | undefined; jwksUrl: string }
  /**
   * `test` completes checkouts locally without money; `off` refuses them. Unset, `test` only when
   * `PUBLIC_URL` is local (`defaultPaymentProvider`).
   */
  paymentProvider: 'test' | 'off'
  /** The plan new organisations start on, and the credits it grants (SPEC §9). */
  freePlan: { id: number; credits: number }
  /** Sign-ups allowed per client address per hour. */
  signupLimitPerHour: number
  /**
   * Credits of new AI renders (cache misses; one per AI step) of the demo a visitor may spend per
   * client address per day.
   */
  anonAiRunsPerDay: number
  /** Visitor uploads per client address per day (kept 24 h). */
  anonUploadsPerDay: number
  /** Bytes all visitor uploads of the last 24 h may take together, server-wide. */
  anonUploadsMaxBytes: number
  /** Contact-form messages per client address per hour. */
  contactLimitPerHour: number
  /**
   * The captcha guarding visitor uploads and AI signing (Turnstile's siteverify API); undefined
   * when `WEB_CAPTCHA_SITE_KEY` is not set (captcha off).
   */
  captcha: { siteKey: string; secret: string; verifyUrl: string } | undefined
  /** The website and console: bases and browser-side keys (`WEB_*`); see `WebSettings`. */
  web: WebSettings
}

/**
 * Validates the environment and returns the server settings.
 *
 * @throws {ConfigError} naming every variable whose value cannot be used, and why.
 */
/** Whether `url` names this machine only (loopback, `localhost`, `*.localhost`). */
export function isLocalUrl(url: string): boolean {
  let hostname: string
  try {
    hostname = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '')
  } catch {
    return false
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '::1'
  )
}

/**
 * The payment provider when `PAYMENT_PROVIDER` is not set: the test checkout (credits without
 * money) only on a local server; on a public URL anyone could give themselves credits, so `off`.
 */
export function defaultPaymentProvider(publicUrl: string): 'test' | 'off' {
  return isLocalUrl(publicUrl) ? 'test' : 'off'
}

/** The start-up line saying which payment provider runs and why. */
export function paymentProviderNote(
  config: Pick<ServerConfig, 'paymentProvider' | 'publicUrl'>,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const chosen = (env.PAYMENT_PROVIDER ?? '').trim() !== ''
  if (chosen) return `payments: ${config.paymentProvider} (PAYMENT_PROVIDER)`
  return config.paymentProvider === 'test'
    ? `payments: test checkout, no money moves (PAYMENT_PROVIDER unset and ${config.publicUrl} is local)`
    : `payments: off (PAYMENT_PROVIDER unset and ${config.publicUrl} is not local; set PAYMENT_PROVIDER=test to try checkouts anyway)`
}

export function loadConfig(env: Readonly<Record<string, string | undefined>>): ServerConfig {
  const parsed = ENV.safeParse(env)
  // The AI settings are the AI package's own (one rule for the server and the package's tests),
  // checked here so a bad value stops the boot rather than the first AI request.
  let aiSettings: AiSettings | undefined
  let aiProblem: string | undefined
  try {
    aiSettings = resolveAiSettings({}, env)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    const name = /^[A-Z_]+/.exec(error.message)?.[0] ?? ''
    aiProblem = `${error.message}, got '${env[name] ?? ''}'`
  }
  if (!parsed.success || aiSettings === undefined) {
    const problems = (parsed.success ? [] : parsed.error.issues).map((issue) => {
      const name = String(issue.path[0])
      return `${name} ${issue.message}, got '${env[name] ?? ''}'`
    })
    if (aiProblem !== undefined) problems.push(aiProblem)
    throw new ConfigError(problems.join('; '))
  }
  const e = parsed.data
  const dataDir = resolve(e.DATA_DIR ?? 'data')
  let storage: ServerConfig['storage']
  if (e.STORAGE_DRIVER === 's3') {
    if (e.S3_BUCKET === undefined) {
      throw new ConfigError("S3_BUCKET must be set when STORAGE_DRIVER is 's3'")
    }
    storage = {
      driver: 's3',
      bucket: e.S3_BUCKET,
      region: e.S3_REGION ?? 'us-east-1',
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      prefix: e.S3_PREFIX,
    }
  } else {
    storage = { driver: 'local', root: resolve(e.STORAGE_DIR ?? join(dataDir, 'storage')) }
  }
  // A live job's lock must not look stale between two heartbeats, with room for a slow one.
  if (e.JOB_STALE_AFTER_MS < 3 * e.JOB_HEARTBEAT_MS) {
    throw new ConfigError(
      `JOB_STALE_AFTER_MS must be at least 3 × JOB_HEARTBEAT_MS, got ${e.JOB_STALE_AFTER_MS} and ${e.JOB_HEARTBEAT_MS}`,
    )
  }
  let captcha: ServerConfig['captcha']
  if (e.WEB_CAPTCHA_SITE_KEY !== undefined) {
    if (e.CAPTCHA_SECRET === undefined) {
      throw new ConfigError('CAPTCHA_SECRET must be set when WEB_CAPTCHA_SITE_KEY is set')
    }
    captcha = {
      siteKey: e.WEB_CAPTCHA_SITE_KEY,
      secret: e.CAPTCHA_SECRET,
      verifyUrl: e.CAPTCHA_VERIFY_URL ?? DEFAULT_CAPTCHA_VERIFY_URL,
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    storage,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    deliveryHosts: e.DELIVERY_HOSTS,
    cacheMaxAge: e.CACHE_MAX_AGE,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    remote: {
      timeoutMs: e.REMOTE_TIMEOUT_MS,
      allowHosts: e.REMOTE_ALLOW_HOSTS,
      maxBytes: e.UPLOAD_MAX_BYTES,
    },
    engine: {
      maxInputPixels: e.MAX_INPUT_PIXELS,
      maxOutputDimension: e.MAX_OUTPUT_DIMENSION,
      maxInputBytes: e.MAX_INPUT_BYTES,
      timeoutMs: e.ENGINE_TIMEOUT_MS,
      concurrency: e.ENGINE_CONCURRENCY,
      aiSettings,
    },
    jobPollMs: e.JOB_POLL_MS,
    jobs: { heartbeatMs: e.JOB_HEARTBEAT_MS, staleAfterMs: e.JOB_STALE_AFTER_MS },
    lookupTtlMs: e.LOOKUP_TTL_MS,
    hotCacheBytes: e.HOT_CACHE_MB * 1024 * 1024,
    derivedCache: { maxBytes: e.DERIVED_CACHE_MAX_BYTES, storeMaxBytes: e.DERIVED_STORE_MAX_BYTES },
    renderLimitPerMinute: e.RENDER_LIMIT_PER_MINUTE,
    trustedProxies: e.TRUSTED_PROXIES,
    metricsToken: e.METRICS_TOKEN,
    seedDemo: e.SEED_DEMO,
    pageCache: {
      maxBytes: e.PAGE_CACHE_MB * 1024 * 1024,
      maxEntries: e.PAGE_CACHE_ENTRIES,
      maxAgeSeconds: e.PAGE_CACHE_SECONDS,
    },
    signing: {
      key: e.PANEL_SIGNING_KEY ?? DEFAULT_PANEL_SIGNING_KEY,
      maxAgeSeconds: e.SIGNATURE_MAX_AGE_S,
    },
    google: { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL ?? DEFAULT_GOOGLE_JWKS_URL },
    paymentProvider:
      e.PAYMENT_PROVIDER ?? defaultPaymentProvider(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
    freePlan: { id: e.FREE_PLAN_ID, credits: e.FREE_PLAN_CREDITS },
    signupLimitPerHour: e.SIGNUP_LIMIT_PER_HOUR,
    anonAiRunsPerDay: e.ANON_AI_RUNS_PER_DAY,
    anonUploadsPerDay: e.ANON_UPLOADS_PER_DAY,
    anonUploadsMaxBytes: e.ANON_UPLOADS_MAX_BYTES,
    contactLimitPerHour: e.CONTACT_LIMIT_PER_HOUR,
    captcha,
    web: {
      mainUrl: e.WEB_MAIN_URL,
      consoleUrl: e.WEB_CONSOLE_URL ?? '/console',
      apiUrl: e.WEB_API_URL,
      deliveryUrl: e.WEB_DELIVERY_URL,
      webhookUrl: e.WEB_WEBHOOK_URL,
      cmsUrl: e.WEB_CMS_URL ?? '/cms',
      docsUrl: e.WEB_DOCS_URL,
      blogUrl: e.WEB_BLOG_URL,
      schedulerUrl: e.WEB_SCHEDULER_URL,
      supportUrl: e.WEB_SUPPORT_URL,
      affiliateUrl: e.WEB_AFFILIATE_URL,
      analyticsId: e.WEB_ANALYTICS_ID,
      chatToken: e.WEB_CHAT_TOKEN,
      errorReportingDsn: e.WEB_ERROR_REPORTING_DSN,
      captchaSiteKey: e.WEB_CAPTCHA_SITE_KEY,
      paymentsClientToken: e.WEB_PAYMENTS_CLIENT_TOKEN,
      productTag: e.WEB_PRODUCT_TAG ?? 'tessera',
      tools: {
        backgroundRemover: e.WEB_TOOL_BACKGROUND_REMOVER_URL,
        upscaler: e.WEB_TOOL_UPSCALER_URL,
        watermarkRemover: e.WEB_TOOL_WATERMARK_REMOVER_URL,
        compressor: e.WEB_TOOL_COMPRESSOR_URL,
        converter: e.WEB_TOOL_CONVERTER_URL,
      },
      appStores: { ios: e.WEB_IOS_APP_URL, android: e.WEB_ANDROID_APP_URL },
      scripts: {
        google: e.WEB_GOOGLE_SCRIPT_URL,
        analytics: e.WEB_ANALYTICS_SCRIPT_URL,
        chat: e.WEB_CHAT_SCRIPT_URL,
        captcha: e.WEB_CAPTCHA_SCRIPT_URL,
      },
    },
  }
}

/** An http(s) URL or a path on this origin (`/console`), without a trailing slash. */
function webUrl() {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine(
        (value) => /^\/(?!\/)/.test(value) || /^https?:\/\/[^\s/]+/i.test(value),
        'must be an http(s) URL or a path starting with /',
      )
      .optional()
      .transform((value) => (value === undefined ? undefined : value.replace(/\/+$/, '') || '/')),
  )
}
