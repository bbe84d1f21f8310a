// The cost estimate follows the upscaler's own choice of network, so what it refuses is what
// would really run: Picasso ×4 is two slim ×2 passes (each back-projected), not the medium ×4.
import { describe, expect, it } from 'vitest'
import { costModelsOf, estimateAiMs, largestSquareWithin } from './cost.ts'
import { paramsOf } from './test-support.ts'

const upscale = (values: Record<string, string | boolean>) => paramsOf('sr.upscale', values)

describe('the cost of sr.upscale', () => {
  it('is that of the network the upscaler runs for each model and scale', () => {
    expect(costModelsOf('sr.upscale', upscale({ t: '2x', model: 'Flash' }))).toEqual([
      'esrgan-slim-2',
    ])
    expect(costModelsOf('sr.upscale', upscale({ t: '2x' }))).toEqual(['esrgan-medium-2'])
    expect(costModelsOf('sr.upscale', upscale({ t: '4x' }))).toEqual(['esrgan-slim-twice-4'])
    expect(
      costModelsOf('sr.upscale', upscale({ t: '4x', model: 'Flash', enhance_quality: true })),
    ).toEqual(['esrgan-slim-twice-4'])
    expect(costModelsOf('sr.upscale', upscale({ t: '8x' }))).toEqual(['esrgan-medium-8'])
  })

  it('grows with the output: ×4 costs more than ×2, Picasso more than Flash', () => {
    const ms = (values: Record<string, string>) =>
      estimateAiMs('sr.upscale', upscale(values), 512, 512)
    expect(ms({ t: '4x', model: 'Flash' })).toBeGreaterThan(ms({ t: '2x', model: 'Flash' }))
    expect(ms({ t: '8x', model: 'Flash' })).toBeGreaterThan(ms({ t: '4x', model: 'Flash' }))
    expect(ms({ t: '2x' })).toBeGreaterThan(ms({ t: '2x', model: 'Flash' }))
    expect(ms({ t: '4x' })).toBeGreaterThan(ms({ t: '4x', model: 'Flash' }))
  })

  it('names a square that fits the time limit and one a little larger that does not', () => {
    const params = upscale({ t: '4x' })
    const side = largestSquareWithin('sr.upscale', params, 60_000)
    expect(estimateAiMs('sr.upscale', params, side, side)).toBeLessThanOrEqual(60_000)
    expect(estimateAiMs('sr.upscale', params, side + 10, side + 10)).toBeGreaterThan(60_000)
  })
})
