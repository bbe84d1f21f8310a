import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_HOST, DEFAULT_PORT, loadConfig } from './config.ts'

describe('loadConfig', () => {
  it('defaults to port 4201 on 127.0.0.1 with local storage and the embedded database', () => {
    const config = loadConfig({})
    expect(DEFAULT_PORT).toBe(4201)
    expect(config).toMatchObject({
      port: DEFAULT_PORT,
      host: DEFAULT_HOST,
      logLevel: 'info',
      databaseUrl: undefined,
      storage: { driver: 'local' },
      publicUrl: 'http://localhost:4201',
      cacheMaxAge: 86400,
      seedDemo: true,
      engine: { maxInputPixels: 50_000_000, maxOutputDimension: 10_000 },
    })
    expect(config.dataDir.endsWith('/data')).toBe(true)
  })

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'images',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_FORCE_PATH_STYLE: 'true',
      PUBLIC_URL: 'https://cdn.example.com/',
      DELIVERY_HOSTS: 'CDN.example.com, img.example.com',
      CACHE_MAX_AGE: '60',
      SEED_DEMO: 'false',
    })
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      logLevel: 'debug',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
      storage: {
        driver: 's3',
        bucket: 'images',
        endpoint: 'http://127.0.0.1:9000',
        forcePathStyle: true,
      },
      publicUrl: 'https://cdn.example.com',
      deliveryHosts: ['cdn.example.com', 'img.example.com'],
      cacheMaxAge: 60,
      seedDemo: false,
    })
  })

  it.each(['abc', '0', '65536', '-1', '80.5', '1e3'])(
    'refuses PORT=%s with a clear message',
    (port) => {
      expect(() => loadConfig({ PORT: port })).toThrow(ConfigError)
      expect(() => loadConfig({ PORT: port })).toThrow(
        `PORT must be a whole number from 1 to 65535, got '${port}'`,
      )
    },
  )

  it('reads the AI settings at boot', () => {
    const config = loadConfig({
      AI_CONCURRENCY: '2',
      AI_TIMEOUT_MS: '30000',
      AI_MAX_INPUT_PIXELS: '4000000',
      AI_IDLE_MS: '1000',
      AI_THREADS: '1',
    })
    expect(config.engine.aiSettings).toEqual({
      concurrency: 2,
      timeoutMs: 30_000,
      maxInputPixels: 4_000_000,
      idleMs: 1000,
      threads: 1,
    })
    expect(loadConfig({}).engine.aiSettings.timeoutMs).toBe(60_000)
  })

  it.each<[Record<string, string>, string]>([
    [{ AI_CONCURRENCY: '0' }, "AI_CONCURRENCY must be a whole number from 1 to 64, got '0'"],
    [
      { AI_TIMEOUT_MS: 'soon' },
      "AI_TIMEOUT_MS must be a whole number from 100 to 3600000, got 'soon'",
    ],
    [{ AI_MAX_INPUT_PIXELS: '1e3' }, 'AI_MAX_INPUT_PIXELS must be a whole number from 1 to'],
    [{ AI_IDLE_MS: '-5' }, 'AI_IDLE_MS must be a whole number'],
    [{ AI_THREADS: '2.5' }, 'AI_THREADS must be a whole number'],
  ])('fails at boot on a bad AI setting: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })

  it('stops `npm start` with the message before anything opens', async () => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url))
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        [main],
        { env: { ...process.env, AI_TIMEOUT_MS: '10', DATA_DIR: '/nonexistent/tessera' } },
        (error, _stdout, stderr) => {
          if (error !== null && typeof error.code !== 'number') reject(error)
          else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr })
        },
      )
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      "Configuration error: AI_TIMEOUT_MS must be a whole number from 100 to 3600000, got '10'",
    )
  })

  it('names a bad AI setting together with the other bad variables', () => {
    expect(() => loadConfig({ PORT: 'x', AI_CONCURRENCY: '0' })).toThrow(
      /PORT must be .*; AI_CONCURRENCY must be/,
    )
  })

  it.each<[Record<string, string>, string]>([
    [{ HOST: 'http://x' }, 'HOST must be a host name or IP address'],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ STORAGE_DRIVER: 'ftp' }, 'STORAGE_DRIVER must be local or s3'],
    [{ STORAGE_DRIVER: 's3' }, "S3_BUCKET must be set when STORAGE_DRIVER is 's3'"],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL must be an http(s) URL'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO must be true or false'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT .*; LOG_LEVEL /)
  })
})
