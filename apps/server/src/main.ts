// Entry point of `npm start`: validate the environment, listen, stop cleanly on signals.
import { ConfigError, loadConfig } from './config.ts'
import { startServer } from './server.ts'

let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig(process.env)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(`Configuration error: ${error.message}`)
  process.exit(1)
}

try {
  const server = await startServer(config)
  console.log(`Tessera listening on ${server.url}`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`${signal} received, closing connections`)
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE')
    console.error(`Port ${config.port} is already in use; set PORT to another port`)
  else console.error(error)
  process.exit(1)
}
