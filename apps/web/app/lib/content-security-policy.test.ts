import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, createNonce, originOf } from './content-security-policy.ts'
import { DEFAULT_RUNTIME_CONFIG, type RuntimeConfig } from './runtime-config.ts'

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((part) => part.startsWith(`${name} `))
    ?.slice(name.length + 1)

describe('contentSecurityPolicy', () => {
  it('allows only this origin and the nonce when no integration is configured', () => {
    const policy = contentSecurityPolicy(DEFAULT_RUNTIME_CONFIG, 'abc')
    expect(directive(policy, 'script-src')).toBe("'self' 'nonce-abc'")
    expect(directive(policy, 'connect-src')).toBe("'self'")
    expect(directive(policy, 'frame-src')).toBe("'none'")
    expect(directive(policy, 'frame-ancestors')).toBe("'none'")
    expect(directive(policy, 'object-src')).toBe("'none'")
    // The captions track is inlined by Vite as a data: URL.
    expect(directive(policy, 'media-src')).toBe("'self' data: blob:")
    expect(policy).not.toMatch(/google|freshchat|unsafe-eval/)
  })

  it('allows the captcha widget’s script and frame only with a site key', () => {
    expect(contentSecurityPolicy(DEFAULT_RUNTIME_CONFIG, 'n')).not.toContain('cloudflare')
    const policy = contentSecurityPolicy(
      { ...DEFAULT_RUNTIME_CONFIG, captchaSiteKey: '0x4AAAAAAA' },
      'n',
    )
    expect(directive(policy, 'script-src')).toContain('https://challenges.cloudflare.com')
    expect(directive(policy, 'frame-src')).toBe('https://challenges.cloudflare.com')
  })

  it('adds each integration’s hosts only with its key', () => {
    const config: RuntimeConfig = {
      ...DEFAULT_RUNTIME_CONFIG,
      googleClientId: 'id.apps.googleusercontent.com',
      chatToken: 'token',
      errorReportingDsn: 'https://key@o1.ingest.example.io/7',
      apiUrl: 'https://api.example.com/',
    }
    const policy = contentSecurityPolicy(config, 'n')
    expect(directive(policy, 'script-src')).toContain('https://accounts.google.com')
    expect(directive(policy, 'frame-src')).toContain('https://accounts.google.com')
    expect(directive(policy, 'script-src')).toContain('https://wchat.freshchat.com')
    expect(directive(policy, 'connect-src')).toContain('https://o1.ingest.example.io')
    expect(directive(policy, 'connect-src')).toContain('https://api.example.com')
    // The tag manager has no id here, so none of its hosts.
    expect(policy).not.toContain('googletagmanager')
    expect(directive(policy, 'script-src')).not.toContain('ingest.example.io')
  })

  it('makes a fresh base64 nonce each time and reads origins of absolute URLs only', () => {
    const nonce = createNonce()
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(createNonce()).not.toBe(nonce)
    expect(originOf('https://cdn.example.com/a/b?c')).toBe('https://cdn.example.com')
    expect(originOf('/cms')).toBeUndefined()
    expect(originOf('')).toBeUndefined()
    expect(originOf('javascript:alert(1)')).toBeUndefined()
  })
})
