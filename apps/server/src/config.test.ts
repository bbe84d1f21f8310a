import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_HOST, DEFAULT_PORT, loadConfig } from './config.ts'

describe('loadConfig', () => {
  it('defaults to port 4201 on 127.0.0.1', () => {
    expect(loadConfig({})).toEqual({ port: DEFAULT_PORT, host: DEFAULT_HOST })
    expect(DEFAULT_PORT).toBe(4201)
  })

  it('reads PORT and HOST', () => {
    expect(loadConfig({ PORT: '8080', HOST: '0.0.0.0' })).toEqual({ port: 8080, host: '0.0.0.0' })
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

  it('refuses a HOST with spaces or slashes', () => {
    expect(() => loadConfig({ HOST: 'http://x' })).toThrow(ConfigError)
  })
})
