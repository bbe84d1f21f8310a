/** Server settings, read once from the environment at boot. */
export interface ServerConfig {
  /** TCP port (env `PORT`, default 4201). */
  port: number
  /** Interface to listen on (env `HOST`, default 127.0.0.1). */
  host: string
}

/** Thrown at boot when an environment variable has a value the server cannot use. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

export const DEFAULT_PORT = 4201
export const DEFAULT_HOST = '127.0.0.1'

function readPort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT
  const text = value.trim()
  const port = Number(text)
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 1 to 65535, got '${value}'`)
  }
  return port
}

function readHost(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_HOST
  const host = value.trim()
  if (/[\s/]/.test(host))
    throw new ConfigError(`HOST must be a host name or IP address, got '${value}'`)
  return host
}

/**
 * Validates the environment and returns the server settings.
 *
 * @throws {ConfigError} naming the variable and the value it cannot use.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): ServerConfig {
  return { port: readPort(env.PORT), host: readHost(env.HOST) }
}
