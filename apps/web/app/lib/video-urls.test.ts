// How the console and the playground treat videos (issue 23): a first-frame thumbnail made by
// delivery, lengths as m:ss, which videos play in place and which are shown as a still.

import { CATALOGUE } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { formatDuration, videoThumbnailUrl } from './console-urls.ts'
import { asPngUrl, formatOf, isDisplayable, isPlayableVideo } from './image-fetch.ts'
import { exampleUrl, isVideoOnly } from './operation-docs.ts'
import { chainMakesVideo } from './video-chain.ts'

describe('videos in the console and the playground', () => {
  it('asks delivery for a JPEG still of the first frame as the thumbnail, through the preview path', () => {
    const thumb = new URL(
      videoThumbnailUrl('http://h/v2/demo/original/videos/clip.mp4'),
      'http://h',
    )
    expect(thumb.pathname).toBe('/service/panel/transformation/v1.0/preview')
    expect(thumb.searchParams.get('url')).toBe(
      'http://h/v2/demo/t.resize(w:320,h:320)~t.toFormat(f:jpeg)/videos/clip.mp4',
    )
  })

  it('writes lengths as m:ss, and h:mm:ss from an hour', () => {
    expect([0, 2.04, 59.6, 61, 3599, 3600, 3661].map(formatDuration)).toEqual([
      '0:00',
      '0:02',
      '1:00',
      '1:01',
      '59:59',
      '1:00:00',
      '1:01:01',
    ])
  })

  it('plays MP4 and WebM in place and asks other containers as a png still', () => {
    expect(['video/mp4', 'video/webm; codecs=vp9'].map(isDisplayable)).toEqual([true, true])
    expect(['video/quicktime', 'video/x-msvideo'].some(isPlayableVideo)).toBe(false)
    expect(isDisplayable('video/x-matroska')).toBe(false)
    expect(asPngUrl('http://h/v2/demo/original/a/clip.mov')).toBe(
      'http://h/v2/demo/t.toFormat(f:png)/a/clip.mov',
    )
    expect([formatOf('video/mp4'), formatOf('video/webm'), formatOf('image/png')]).toEqual([
      'mp4',
      'webm',
      'png',
    ])
  })

  it('marks the operations that take video files only (no live example on the image sample)', () => {
    const spec = (key: string) => {
      const [plugin = '', method = ''] = key.split('.')
      return CATALOGUE.getOperation(plugin, method) ?? {}
    }
    expect(['vid.frame', 'vid.trim', 'vsr.upscale'].map((key) => isVideoOnly(spec(key)))).toEqual([
      true,
      true,
      true,
    ])
    expect(['t.resize', 't.toFormat', 'erase.bg'].some((key) => isVideoOnly(spec(key)))).toBe(false)
    const frame = CATALOGUE.getOperation('vid', 'frame')
    if (frame === undefined) throw new Error('no vid.frame')
    expect(exampleUrl(frame, 'http://h')).toBe(
      'http://h/v2/{cloudName}/vid.frame(t:1.5)/{your-video}.mp4',
    )
  })

  it('tells a chain that makes a video (signed, like an AI chain) from a still', () => {
    const step = (plugin: string, method: string, values: Record<string, string> = {}) => ({
      plugin,
      method,
      values,
    })
    expect(chainMakesVideo('mp4', [step('t', 'resize', { w: '320' })])).toBe(true)
    expect(chainMakesVideo('mov', [step('vid', 'trim', { s: '1' })])).toBe(true)
    expect(chainMakesVideo('mp4', [])).toBe(false)
    expect(chainMakesVideo('mp4', [step('vid', 'frame', { t: '1' })])).toBe(false)
    expect(chainMakesVideo('mp4', [step('t', 'toFormat', { f: 'jpeg' })])).toBe(false)
    expect(chainMakesVideo('mp4', [step('t', 'toFormat', { f: 'gif' })])).toBe(true)
    expect(chainMakesVideo('gif', [step('t', 'toFormat', { f: 'mp4' })])).toBe(true)
    expect(chainMakesVideo('png', [step('t', 'resize', { w: '320' })])).toBe(false)
  })
})
