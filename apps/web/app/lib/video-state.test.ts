import { describe, expect, it } from 'vitest'
import { formatDuration, INITIAL_VIDEO, videoReducer } from './video-state.ts'

describe('product video state (SPEC §4)', () => {
  it('starts hidden', () => {
    expect(INITIAL_VIDEO).toEqual({ isPlay: false })
  })

  it('goes from hidden to playing on open and back to hidden on close', () => {
    const playing = videoReducer(INITIAL_VIDEO, { type: 'opened' })
    expect(playing.isPlay).toBe(true)
    expect(videoReducer(playing, { type: 'closed' }).isPlay).toBe(false)
  })

  it('returns the same state when nothing changes (a second open or close does nothing)', () => {
    const playing = videoReducer(INITIAL_VIDEO, { type: 'opened' })
    expect(videoReducer(playing, { type: 'opened' })).toBe(playing)
    expect(videoReducer(INITIAL_VIDEO, { type: 'closed' })).toBe(INITIAL_VIDEO)
  })
})

describe('formatDuration', () => {
  it.each([
    [0, '0:00'],
    [9.4, '0:09'],
    [23.5, '0:24'],
    [60, '1:00'],
    [125, '2:05'],
    [-3, '0:00'],
  ])('shows %d seconds as %s', (seconds, shown) => {
    expect(formatDuration(seconds)).toBe(shown)
  })
})
