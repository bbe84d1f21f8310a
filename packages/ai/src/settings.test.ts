import { describe, expect, it } from 'vitest'
import { DEFAULT_AI_SETTINGS, resolveAiSettings } from './settings.ts'

describe('AI settings', () => {
  it('take explicit values over the environment over the defaults', () => {
    const env = { AI_CONCURRENCY: '2', AI_TIMEOUT_MS: '5000' }
    expect(resolveAiSettings({ timeoutMs: 7000 }, env)).toEqual({
      ...DEFAULT_AI_SETTINGS,
      concurrency: 2,
      timeoutMs: 7000,
    })
    expect(resolveAiSettings({}, {}).concurrency).toBe(1)
  })

  it('refuse values out of range with the variable named', () => {
    expect(() => resolveAiSettings({}, { AI_CONCURRENCY: '0' })).toThrow(/AI_CONCURRENCY/)
    expect(() => resolveAiSettings({}, { AI_MAX_INPUT_PIXELS: 'many' })).toThrow(
      /AI_MAX_INPUT_PIXELS/,
    )
    expect(() => resolveAiSettings({ timeoutMs: 1.5 })).toThrow(RangeError)
    for (const written of ['1e3', '0x10', '5.0', '-1']) {
      expect(() => resolveAiSettings({}, { AI_TIMEOUT_MS: written })).toThrow(/AI_TIMEOUT_MS/)
    }
  })
})
