// Product video overlay state of SPEC §3 and §4: `isPlay` goes from hidden to playing on open and
// back to hidden on close (the close button, Escape, or a click outside the video).

export interface VideoState {
  isPlay: boolean
}

export type VideoAction = { type: 'opened' } | { type: 'closed' }

export const INITIAL_VIDEO: VideoState = { isPlay: false }

export function videoReducer(state: VideoState, action: VideoAction): VideoState {
  switch (action.type) {
    case 'opened':
      return state.isPlay ? state : { isPlay: true }
    case 'closed':
      return state.isPlay ? { isPlay: false } : state
  }
}

/** "0:24" for a length in seconds (rounded), as shown next to the play button. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds))
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
