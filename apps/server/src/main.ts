// Entry point of `npm start`: validate the environment, start everything, stop cleanly on signals.
// First: sizes libuv's thread pool before any module can start it.
import './platform/thread-pool.ts'
import { ConfigError, isLocalUrl, loadConfig, mailNote, paymentProviderNote } from './config.ts'
import { startupMessage } from './http/loopback.ts'
import { createLogger } from './platform/logger.ts'
import { startServer } from './server.ts'

let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig(process.env)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(`Configuration error: ${error.message}`)
  process.exit(1)
}

const logger = createLogger(config)
try {
  const server = await startServer(config, { logger })
  logger.info({ url: server.url, publicUrl: config.publicUrl }, startupMessage(config, server.url))
  logger.info({ paymentProvider: config.paymentProvider }, paymentProviderNote(config, process.env))
  logger.info({ mail: config.mail.smtp === undefined ? 'outbox' : 'smtp' }, mailNote(config))
  if (config.paymentProvider === 'test' && !isLocalUrl(config.publicUrl)) {
    logger.warn(
      'PAYMENT_PROVIDER is test: anyone can pay checkouts on the test page and get credits. Set PAYMENT_PROVIDER=off (or a real provider) on a public server.',
    )
  }
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'closing connections')
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'could not close cleanly')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  // Content files edited in place: read them again without a restart (the page cache empties).
  process.on('SIGHUP', () => {
    server.services.reloadContent().then(
      () => logger.info('content reloaded'),
      (error: unknown) => logger.error({ err: error }, 'content not reloaded; the previous stays'),
    )
  })
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') {
    logger.fatal(`Port ${config.port} is already in use; set PORT to another port`)
  } else {
    logger.fatal({ err: error }, 'could not start')
  }
  process.exit(1)
}
