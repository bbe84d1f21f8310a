import { type Logger, pino } from 'pino'
import type { ServerConfig } from '../config.ts'

export type { Logger }

/** Structured JSON logs on stdout (pino); request ids are added per request by the app. */
export function createLogger(config: Pick<ServerConfig, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'tessera' },
    redact: ['req.headers.cookie', 'req.headers.authorization'],
  })
}
