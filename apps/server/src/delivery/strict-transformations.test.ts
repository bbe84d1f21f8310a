// The strict-transformations rule on its own: which operations of a chain as written need a
// signature, and how a signature is recognised. Delivery's use of it is covered end to end in
// organization-settings.test.ts.
import { parsePattern, signUrl } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import {
  hasSignature,
  STRICT_TRANSFORMATIONS_CODE,
  STRICT_TRANSFORMATIONS_STATUS,
  strictTransformationsError,
  writtenCostlyOperation,
} from './strict-transformations.ts'

const costly = (pattern: string) => writtenCostlyOperation(parsePattern(pattern).value)?.text

describe('writtenCostlyOperation', () => {
  it.each([
    ['ic.crop(w:10)', 'ic.crop(w:10)'],
    ['t.flip()~ic.crop(w:10)', 'ic.crop(w:10)'],
    ['p:square~erase.bg()', 'erase.bg()'],
    ['erase.bg()~p.apply(n:square)', 'erase.bg()'],
  ])('finds the AI operation %s writes itself', (pattern, found) => {
    expect(costly(pattern)).toBe(found)
  })

  it.each([
    't.resize(w:100)~t.flip()',
    'p:square',
    'p.apply(n:square)',
    'p:card:w:100~t.flip()',
    '',
  ])('lets %s through: free operations and presets only', (pattern) => {
    expect(costly(pattern)).toBeUndefined()
  })
})

describe('hasSignature', () => {
  it('recognises the signature parameter of a signed URL, and nothing else', async () => {
    const url = 'https://cdn.test/v2/acme/ic.crop(w:10)/a.png'
    const signed = await signUrl(url, { accessKey: 'ak', token: 'secret', expirySeconds: 60 })
    expect(hasSignature(signed)).toBe(true)
    expect(hasSignature(url)).toBe(false)
    expect(hasSignature(`${url}?f_auto=true`)).toBe(false)
    expect(hasSignature(`${url}?pbt=ak&pbe=1`)).toBe(false)
    expect(hasSignature(`${url}?x=1&pbs=00`)).toBe(true)
  })
})

describe('strictTransformationsError', () => {
  it('names the operation and says what to do, as a 401 with a stable code', () => {
    const [operation] = parsePattern('ic.crop(w:10)').value
    const error = strictTransformationsError(operation as NonNullable<typeof operation>, false)
    expect(error.status).toBe(STRICT_TRANSFORMATIONS_STATUS)
    expect(STRICT_TRANSFORMATIONS_STATUS).toBe(401)
    expect(error.code).toBe(STRICT_TRANSFORMATIONS_CODE)
    expect(error.message).toBe(
      'ic.crop costs credits: this organisation only runs it from a signed URL or one of its presets',
    )
    const forged = strictTransformationsError(operation as NonNullable<typeof operation>, true)
    expect(forged.message).toMatch(/signature is not valid/)
  })
})
