import { describe, expect, it } from 'vitest'
import { MAX_TRANSFORMATIONS } from './constants.ts'
import {
  canAddTransformation,
  checkTransformationLimit,
  countItemOperations,
  countOperations,
  isAssetSlug,
} from './limits.ts'

const op = { isPreset: false }
const preset = (count: number) => ({
  isPreset: true,
  transformation: Array.from({ length: count }, () => 't.flip()').join('~'),
})

describe('the 15-operation cap', () => {
  it('is 15', () => {
    expect(MAX_TRANSFORMATIONS).toBe(15)
  })

  it('counts a preset as each of its operations', () => {
    expect(countItemOperations(preset(4))).toBe(4)
    expect(
      countItemOperations({ isPreset: true, transformation: 't.merge(tr:t.a()~t.b())~t.c()' }),
    ).toBe(2)
    expect(countItemOperations(op)).toBe(1)
    expect(countOperations([op, preset(3), op])).toBe(5)
  })

  it('allows adding up to 15 and disables adding at 15', () => {
    const fourteen = Array.from({ length: 14 }, () => op)
    expect(canAddTransformation(fourteen)).toBe(true)
    expect(checkTransformationLimit(fourteen, op)).toBeUndefined()
    expect(canAddTransformation([...fourteen, op])).toBe(false)
  })

  it("refuses a 16th operation with 'Cannot add more than 15 transformations.'", () => {
    const fifteen = Array.from({ length: 15 }, () => op)
    expect(checkTransformationLimit(fifteen, op)).toBe('Cannot add more than 15 transformations.')
  })

  it("refuses a preset that would pass 15 with 'Cannot add preset, causing more than 15 transformations.'", () => {
    const twelve = Array.from({ length: 12 }, () => op)
    expect(checkTransformationLimit(twelve, preset(3))).toBeUndefined()
    expect(checkTransformationLimit(twelve, preset(4))).toBe(
      'Cannot add preset, causing more than 15 transformations.',
    )
  })
})

describe('isAssetSlug', () => {
  it.each(['ek69d0', 'z-slug', 'ab-cd_', 'ABCDEF'])('accepts %s', (slug) => {
    expect(isAssetSlug(slug)).toBe(true)
  })
  it.each(['abc', 'abcdefg', 'abc de', 'abc.de', '', 123456])('refuses %j', (slug) => {
    expect(isAssetSlug(slug)).toBe(false)
  })
})
