import { describe, expect, it } from 'vitest'
import { parseColor, rgbToHex } from './color.ts'
import { IllegalArgumentError, MESSAGES } from './errors.ts'

describe('rgbToHex', () => {
  it.each<[Parameters<typeof rgbToHex>, string]>([
    [[255, 0, 0], 'ff0000'],
    [[0, 128, 255], '0080ff'],
    [[255, 255, 255, 1], 'ffffffff'],
    [[0, 0, 0, 0], '00000000'],
    [[255, 0, 0, 0.5], 'ff000080'],
    [[255, 0, 0, '50%'], 'ff000080'],
    [[255, 0, 0, '100%'], 'ff0000ff'],
    [['10', '20', '30'], '0a141e'],
  ])('converts %j', (args, hex) => {
    expect(rgbToHex(...args)).toBe(hex)
  })

  it.each<Parameters<typeof rgbToHex>>([
    [256, 0, 0],
    [0, -1, 0],
    [0, 0, Number.NaN],
    ['x', 0, 0],
  ])('refuses channels %j: expected three numbers below 256', (...args) => {
    expect(() => rgbToHex(...args)).toThrowError(new IllegalArgumentError(MESSAGES.rgb))
  })

  it.each<[number | string]>([[1.5], [-0.1], ['101%'], ['abc']])(
    'refuses alpha %j: expected a fraction or percentage',
    (alpha) => {
      expect(() => rgbToHex(0, 0, 0, alpha)).toThrowError(new IllegalArgumentError(MESSAGES.alpha))
    },
  )
})

describe('parseColor', () => {
  it.each([
    ['rgb(255, 0, 0)', 'ff0000'],
    ['RGBA(0,128,255,0.5)', '0080ff80'],
    ['rgba(0, 128, 255, 50%)', '0080ff80'],
    ['rgb(0 128 255 / 50%)', '0080ff80'],
    ['#ABCDEF', 'abcdef'],
    ['#abc', 'aabbcc'],
    ['#abcd', 'aabbccdd'],
    ['00000000', '00000000'],
  ])('reads %s', (text, hex) => {
    expect(parseColor(text)).toBe(hex)
  })

  it.each([['red'], ['rgb(1,2)'], ['rgb(300,0,0)'], ['hsl(1,2,3)'], ['#ggg']])(
    'refuses %s',
    (text) => {
      expect(() => parseColor(text)).toThrowError(IllegalArgumentError)
    },
  )
})
