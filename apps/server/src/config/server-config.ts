// The shape of the server's settings, as `loadConfig` (config.ts) answers them.
import type { AiSettings } from '@tessera/engine'
import type { LOG_LEVELS } from './env.ts'
import type { WebSettings } from './web-settings.ts'

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
    maxSvgElements: number
    maxSvgPixels: number
    maxPdfPages: number
    maxOutputBytes: number
    cacheMemoryMb: number
    cacheItems: number
    /** `ENGINE_DECODED_CACHE_MB`: decoded sources kept for their next sizes (0: off). */
    decodedCacheMb: number
    /** `AUTO_AVIF_MAX_SIDE`: `f_auto` answers AVIF up to this longer side (0: never). */
    autoAvifMaxSide: number
    /** The AI service's settings (`AI_CONCURRENCY`, `AI_TIMEOUT_MS`, `AI_MAX_INPUT_PIXELS`, …). */
    aiSettings: AiSettings
  }
  /** Video work (`VIDEO_*`): limits and ffmpeg processes. */
  video: {
    maxSeconds: number
    maxPixels: number
    maxOutputBytes: number
    timeoutMs: number
    concurrency: number
    threads: number
    /** Where ffmpeg's private temp directories go (`VIDEO_TEMP_DIR`; the OS's by default). */
    tempDir?: string
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
  paymentProvider: 'test' | 'stripe' | 'off'
  /** Stripe's settings, when `PAYMENT_PROVIDER=stripe`. */
  stripe: StripeSettings | undefined
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
  /**
   * E-mail (decision 019): the SMTP server (a URL, or its parts), or undefined for the development
   * outbox; the sender; how many outbox mails are kept; who may read the outbox (lower-case).
   */
  mail: {
    smtp:
      | { url: string }
      | {
          host: string
          port: number
          secure: boolean
          user: string | undefined
          password: string | undefined
        }
      | undefined
    from: string
    outboxKeep: number
    operators: string[]
  }
  /**
   * Custom domains' challenges: the DNS servers asked for `_tessera-challenge.<domain>` TXT and
   * the domain's address (`DOMAIN_DNS_SERVERS`, `ip` or `ip:port`; empty: the system's), the
   * port the HTTP challenge is fetched on, and how long a check may take.
   */
  domains: { dnsServers: string[]; httpPort: number; checkTimeoutMs: number }
  /** Days of usage per day and of activity log kept (older rows are deleted by housekeeping). */
  retention: { usageDays: number; activityDays: number }
  /** The website and console: bases and browser-side keys (`WEB_*`); see `WebSettings`. */
  web: WebSettings
}

/** Stripe (`PAYMENT_PROVIDER=stripe`): keys, Price ids by plan or addon id, the API address. */
export interface StripeSettings {
  secretKey: string
  webhookSecret: string
  /** Stripe's Price of a plan or addon id; an item without one is sold at its own amount. */
  priceIds: Readonly<Record<string, string>>
  /** The API's address (`STRIPE_API_URL`), when it is not Stripe's own. */
  apiUrl: string | undefined
}
