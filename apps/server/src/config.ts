// Every environment variable the server reads, validated at boot (`loadConfig`). The parts live
// in config/ by concern: the variables and their rules (env.ts), the settings' shape
// (server-config.ts), defaults (defaults.ts), the payment provider's default (payments.ts).
import { join, resolve } from 'node:path'
import { type AiSettings, resolveAiSettings } from '@tessera/engine'
import {
  ConfigError,
  DEFAULT_CAPTCHA_VERIFY_URL,
  DEFAULT_GOOGLE_JWKS_URL,
  DEFAULT_PANEL_SIGNING_KEY,
} from './config/defaults.ts'
import { ENV } from './config/env.ts'
import { mailSettings } from './config/mail.ts'
import { defaultPaymentProvider } from './config/payments.ts'
import type { ServerConfig } from './config/server-config.ts'

export {
  ConfigError,
  DEFAULT_CAPTCHA_VERIFY_URL,
  DEFAULT_FREE_PLAN_ID,
  DEFAULT_GOOGLE_JWKS_URL,
  DEFAULT_HOST,
  DEFAULT_PANEL_SIGNING_KEY,
  DEFAULT_PORT,
} from './config/defaults.ts'
export { mailNote } from './config/mail.ts'
export { defaultPaymentProvider, isLocalUrl, paymentProviderNote } from './config/payments.ts'
export type { ServerConfig } from './config/server-config.ts'
export type { WebSettings } from './config/web-settings.ts'

/**
 * Validates the environment and returns the server settings.
 *
 * @throws {ConfigError} naming every variable whose value cannot be used, and why.
 */
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
  const paymentProvider =
    e.PAYMENT_PROVIDER ?? defaultPaymentProvider(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`)
  let stripe: ServerConfig['stripe']
  if (paymentProvider === 'stripe') {
    if (e.STRIPE_SECRET_KEY === undefined || e.STRIPE_WEBHOOK_SECRET === undefined) {
      throw new ConfigError(
        'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set when PAYMENT_PROVIDER is stripe',
      )
    }
    stripe = {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      priceIds: Object.fromEntries(
        (e.STRIPE_PRICE_IDS ?? '')
          .split(',')
          .filter((pair) => pair.trim() !== '')
          .map((pair) => pair.split('=').map((part) => part.trim()) as [string, string]),
      ),
      apiUrl: e.STRIPE_API_URL,
    }
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
      maxSvgElements: e.SVG_MAX_ELEMENTS,
      maxSvgPixels: e.SVG_MAX_PIXELS,
      maxPdfPages: e.PDF_MAX_PAGES,
      maxOutputBytes: e.OUTPUT_MAX_BYTES,
      cacheMemoryMb: e.SHARP_CACHE_MB,
      cacheItems: e.SHARP_CACHE_ITEMS,
      decodedCacheMb: e.ENGINE_DECODED_CACHE_MB,
      autoAvifMaxSide: e.AUTO_AVIF_MAX_SIDE,
      aiSettings,
    },
    video: {
      maxSeconds: e.VIDEO_MAX_SECONDS,
      maxPixels: e.VIDEO_MAX_PIXELS,
      maxOutputBytes: e.VIDEO_MAX_OUTPUT_BYTES,
      timeoutMs: e.VIDEO_TIMEOUT_MS,
      concurrency: e.VIDEO_CONCURRENCY,
      threads: e.VIDEO_THREADS,
      ...(e.VIDEO_TEMP_DIR === undefined ? {} : { tempDir: e.VIDEO_TEMP_DIR }),
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
    paymentProvider,
    stripe,
    freePlan: { id: e.FREE_PLAN_ID, credits: e.FREE_PLAN_CREDITS },
    signupLimitPerHour: e.SIGNUP_LIMIT_PER_HOUR,
    anonAiRunsPerDay: e.ANON_AI_RUNS_PER_DAY,
    anonUploadsPerDay: e.ANON_UPLOADS_PER_DAY,
    anonUploadsMaxBytes: e.ANON_UPLOADS_MAX_BYTES,
    contactLimitPerHour: e.CONTACT_LIMIT_PER_HOUR,
    captcha,
    mail: mailSettings(e, e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
    domains: {
      dnsServers: e.DOMAIN_DNS_SERVERS,
      httpPort: e.DOMAIN_HTTP_PORT,
      checkTimeoutMs: e.DOMAIN_CHECK_TIMEOUT_MS,
    },
    retention: { usageDays: e.USAGE_RETENTION_DAYS, activityDays: e.ACTIVITY_RETENTION_DAYS },
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
