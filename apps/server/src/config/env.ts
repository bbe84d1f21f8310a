// The environment variables the server reads, each with its rule and default (zod), validated at
// boot by `loadConfig` (config.ts).
import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { DEFAULT_FREE_PLAN_ID, DEFAULT_HOST, DEFAULT_PORT } from './defaults.ts'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

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

/** Every variable's rule; `loadConfig` reads the parsed values. */
export const ENV = z.object({
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
  // Custom domains (issue 24): where their challenges are looked up.
  DOMAIN_DNS_SERVERS: list,
  DOMAIN_HTTP_PORT: integer(1, 65535, 80, 'TCP port'),
  DOMAIN_CHECK_TIMEOUT_MS: integer(100, 60_000, 5_000, 'ms'),
  // Usage per day and the activity log (issue 24): how long their rows are kept.
  USAGE_RETENTION_DAYS: integer(1, 3650, 400, 'days'),
  ACTIVITY_RETENTION_DAYS: integer(1, 3650, 365, 'days'),
  MAX_INPUT_PIXELS: integer(1, 2 ** 40, 50_000_000, 'pixels'),
  MAX_OUTPUT_DIMENSION: integer(1, 100_000, 10_000, 'pixels'),
  MAX_INPUT_BYTES: integer(1, 2 ** 40, 50 * 1024 * 1024, 'bytes'),
  ENGINE_TIMEOUT_MS: integer(100, 3_600_000, 30_000, 'ms'),
  // Two one-thread pipelines per core: one computes while another decodes, encodes or waits for
  // storage (with one per core the uncached delivery bench ran 17–27 % slower; docs/benchmarks.md).
  ENGINE_CONCURRENCY: integer(1, 1024, 2 * availableParallelism(), 'pipelines'),
  // SVG limits and libvips' operation cache (issue 19 finding 2; docs/security.md).
  SVG_MAX_ELEMENTS: integer(1, 10_000_000, 20_000, 'elements'),
  SVG_MAX_PIXELS: integer(1, 2 ** 40, 25_000_000, 'pixels'),
  // A PDF with more pages is refused before any page is drawn (issue 23).
  PDF_MAX_PAGES: integer(1, 1_000_000, 2_000, 'pages'),
  // Results whose format decides their size (BMP, TIFF); issue 19 finding 13.
  OUTPUT_MAX_BYTES: integer(1, 2 ** 40, 32 * 1024 ** 2, 'bytes'),
  SHARP_CACHE_MB: integer(0, 1_000_000, 32, 'MiB'),
  // Decoded sources kept for their next sizes (decision 023); 0 turns it off.
  ENGINE_DECODED_CACHE_MB: integer(0, 1_000_000, 64, 'MiB'),
  // f_auto answers AVIF up to this longer side, WebP above (issue 25); 0: never AVIF.
  AUTO_AVIF_MAX_SIDE: integer(0, 10_000_000, 1200, 'px'),
  // Video through ffmpeg child processes (issue 23; docs/delivery.md#video).
  VIDEO_MAX_SECONDS: integer(1, 86_400, 600, 'seconds'),
  VIDEO_MAX_PIXELS: integer(1, 2 ** 40, 3840 * 2160, 'pixels'),
  VIDEO_MAX_OUTPUT_BYTES: integer(1024, 2 ** 40, 64 * 1024 ** 2, 'bytes'),
  VIDEO_TIMEOUT_MS: integer(1000, 3_600_000, 120_000, 'ms'),
  VIDEO_CONCURRENCY: integer(
    1,
    64,
    Math.max(1, Math.floor(availableParallelism() / 2)),
    'processes',
  ),
  VIDEO_THREADS: integer(1, 64, 2, 'threads'),
  VIDEO_TEMP_DIR: text,
  SHARP_CACHE_ITEMS: integer(0, 1_000_000, 5, 'operations'),
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
  TRUSTED_PROXIES: list.refine((items) => items.every((item) => isIP(item) !== 0), {
    error: 'must be a comma-separated list of IP addresses',
  }),
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
    z.enum(['test', 'stripe', 'off'], { error: 'must be test, stripe or off' }).optional(),
  ),
  // Stripe (PAYMENT_PROVIDER=stripe): the secret key, the webhook endpoint's signing secret, the
  // Price of each plan or addon id (`1=price_…,101=price_…`; without one the checkout states the
  // amount itself), and the API's address (a local stand-in in tests).
  STRIPE_SECRET_KEY: text,
  STRIPE_WEBHOOK_SECRET: text,
  STRIPE_PRICE_IDS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^-?\d+=[A-Za-z0-9_]+(,\s*-?\d+=[A-Za-z0-9_]+)*$/,
        'must be id=price_id pairs separated by commas',
      )
      .optional(),
  ),
  STRIPE_API_URL: httpUrl,
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
  // E-mail (decision 019): SMTP_URL, or host, port, user, password and TLS; neither set, mail goes
  // to the development outbox (database, newest MAIL_OUTBOX_KEEP kept) and the log.
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  SMTP_HOST: text,
  SMTP_PORT: integer(1, 65535, 587, 'TCP port'),
  SMTP_USER: text,
  SMTP_PASSWORD: text,
  SMTP_SECURE: flag(false),
  MAIL_FROM: text,
  MAIL_OUTBOX_KEEP: integer(1, 100_000, 200, 'mails'),
  OPERATOR_EMAILS: list,
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
