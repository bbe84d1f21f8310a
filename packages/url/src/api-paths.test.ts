import { describe, expect, it } from 'vitest'
import { ORG_SEGMENT, PANEL_API_PATHS, PANEL_API_PREFIX, PUBLIC_API_PATHS } from './api-paths.ts'

describe('API base paths', () => {
  it('are absolute, without a trailing slash, and unique', () => {
    const all = [...Object.values(PUBLIC_API_PATHS), ...Object.values(PANEL_API_PATHS)]
    for (const path of all) expect(path).toMatch(/^\/[\w./-]*[^/]$/)
    expect(new Set(all).size).toBe(all.length)
  })

  it('puts every panel family under the panel prefix, and no public one', () => {
    for (const path of Object.values(PANEL_API_PATHS))
      expect(path.startsWith(PANEL_API_PREFIX)).toBe(true)
    for (const path of Object.values(PUBLIC_API_PATHS))
      expect(path.startsWith(PANEL_API_PREFIX)).toBe(false)
    expect(ORG_SEGMENT).toMatch(/^[a-z]+$/)
  })
})
