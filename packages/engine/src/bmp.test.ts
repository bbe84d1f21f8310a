import { describe, expect, it } from 'vitest'
import { encodeBmp } from './bmp.ts'

describe('encodeBmp', () => {
  it('writes a 24-bit bottom-up BMP with padded rows', () => {
    // 3×2: top row red, green, blue; bottom row white, black, grey.
    const data = Buffer.from([
      255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128, 128, 128,
    ])
    const bmp = encodeBmp({ data, width: 3, height: 2, channels: 3, pages: 1 })
    expect(bmp.toString('latin1', 0, 2)).toBe('BM')
    expect(bmp.readUInt32LE(2)).toBe(bmp.length)
    expect(bmp.readUInt16LE(28)).toBe(24)
    const offset = bmp.readUInt32LE(10)
    expect(offset).toBe(54)
    // Rows of 9 bytes padded to 12; the bottom row comes first, in BGR.
    expect([...bmp.subarray(offset, offset + 12)]).toEqual([
      255, 255, 255, 0, 0, 0, 128, 128, 128, 0, 0, 0,
    ])
    expect([...bmp.subarray(offset + 12, offset + 21)]).toEqual([0, 0, 255, 0, 255, 0, 255, 0, 0])
  })

  it('writes a 32-bit BMP with an alpha mask when the image has alpha', () => {
    const data = Buffer.from([10, 20, 30, 40])
    const bmp = encodeBmp({ data, width: 1, height: 1, channels: 4, pages: 1 })
    expect(bmp.readUInt16LE(28)).toBe(32)
    expect(bmp.readUInt32LE(30)).toBe(3)
    expect(bmp.readUInt32LE(66)).toBe(0xff000000)
    const offset = bmp.readUInt32LE(10)
    expect([...bmp.subarray(offset, offset + 4)]).toEqual([30, 20, 10, 40])
  })

  it('spreads a grey value over the three colours', () => {
    const bmp = encodeBmp({ data: Buffer.from([77]), width: 1, height: 1, channels: 1, pages: 1 })
    const offset = bmp.readUInt32LE(10)
    expect([...bmp.subarray(offset, offset + 3)]).toEqual([77, 77, 77])
  })
})
