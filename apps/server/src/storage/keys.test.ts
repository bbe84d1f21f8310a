import { describe, expect, it } from 'vitest'
import { StorageError } from './errors.ts'
import { assertValidKey, assertValidPrefix, isValidKey } from './keys.ts'

const VALID_KEYS: { name: string; key: string }[] = [
  { name: 'a one-letter key', key: 'a' },
  {
    name: 'an original',
    key: 'orgs/0b6a3f8e-3c1d-4c59-9a57-1f0e2c7b9d11/originals/samples/astronaut.png',
  },
  { name: 'a derived image', key: 'orgs/0b6a3f8e/derived/9f86d081884c7d65.webp' },
  { name: 'spaces and brackets', key: 'my photo (1).JPG' },
  { name: 'accents, CJK and emoji', key: 'été/日本/😀.png' },
  { name: 'a dot folder', key: '.well-known/file' },
  { name: 'three dots', key: '...' },
  { name: 'dots around names', key: '..a/b..' },
  { name: 'percent signs that encode nothing dangerous', key: 'a%20b/100%.png' },
  { name: 'a dot file ending in .tmp', key: '.draft.tmp' },
  { name: 'a key of exactly 1024 bytes', key: `${'x'.repeat(200)}/`.repeat(4) + 'y'.repeat(220) },
  { name: 'segments of exactly 255 bytes', key: `${'a'.repeat(255)}/${'b'.repeat(255)}` },
]

const INVALID_KEYS: { name: string; key: string }[] = [
  { name: 'an empty key', key: '' },
  { name: 'a parent segment first', key: '../x' },
  { name: 'a parent segment inside', key: 'a/../b' },
  { name: 'a parent segment last', key: 'a/..' },
  { name: 'a current segment', key: 'a/./b' },
  { name: 'a lone dot', key: '.' },
  { name: 'an encoded parent segment', key: '%2e%2e/x' },
  { name: 'an upper-case encoded parent segment', key: 'a/%2E%2E/b' },
  { name: 'a half-encoded parent segment', key: '.%2e/x' },
  { name: 'an encoded current segment', key: 'a/%2e/b' },
  { name: 'an encoded slash', key: 'a%2fb' },
  { name: 'an upper-case encoded slash', key: '..%2F..%2Fetc' },
  { name: 'an encoded backslash', key: 'a%5cb' },
  { name: 'an encoded NUL', key: 'a%00b' },
  { name: 'a backslash', key: 'a\\b' },
  { name: 'a Windows parent path', key: '..\\x' },
  { name: 'an absolute path', key: '/abs' },
  { name: 'an empty segment', key: 'a//b' },
  { name: 'a trailing slash', key: 'a/' },
  { name: 'a NUL byte', key: 'a\u0000b' },
  { name: 'a newline', key: 'a\nb' },
  { name: 'a DEL', key: 'a\u007fb' },
  { name: 'a C1 control character', key: 'a\u0085b' },
  { name: 'a lone UTF-16 surrogate', key: 'a\ud800b' },
  { name: 'a key of 1025 bytes', key: `${'x'.repeat(200)}/`.repeat(4) + 'y'.repeat(221) },
  {
    name: 'a key of 1027 bytes in 516 characters',
    key: `${'é'.repeat(100)}/`.repeat(5) + 'é'.repeat(11),
  },
  { name: 'a segment of 256 bytes', key: `a/${'b'.repeat(256)}` },
  { name: 'a temporary file name', key: 'a/.b.png.0123456789abcdef.tmp' },
]

describe('assertValidKey', () => {
  it.each(VALID_KEYS)('accepts $name', ({ key }) => {
    expect(() => assertValidKey(key)).not.toThrow()
    expect(isValidKey(key)).toBe(true)
  })

  it.each(INVALID_KEYS)('refuses $name', ({ key }) => {
    expect(isValidKey(key)).toBe(false)
    let thrown: unknown
    try {
      assertValidKey(key)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(StorageError)
    expect(thrown).toMatchObject({ code: 'invalid_key', key, name: 'StorageError' })
  })

  it('refuses a value that is not a string', () => {
    expect(() => assertValidKey(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    )
  })

  it('says why in the message without repeating the key', () => {
    expect(() => assertValidKey('a//b')).toThrow('Invalid storage key: it has an empty segment')
  })
})

describe('assertValidPrefix', () => {
  it.each(['', 'orgs/', 'orgs/0b6a/', 'orgs/0b6a/der', 'a'])('accepts %j', (prefix) => {
    expect(() => assertValidPrefix(prefix)).not.toThrow()
  })

  it.each(['/', '/orgs/', '../', 'a//', 'a/../', 'a\\', 'a\u0000/'])('refuses %j', (prefix) => {
    expect(() => assertValidPrefix(prefix)).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    )
  })
})
