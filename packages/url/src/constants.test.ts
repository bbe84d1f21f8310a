import { describe, expect, it } from 'vitest'
import {
  AUDIO_FORMATS,
  CONTENT_NEGOTIATION_FORMATS,
  DEFAULT_CONTENT_TYPE,
  DEFAULT_FORMAT,
  IMAGE_FORMATS,
  isImageFormat,
  isTransformableFormat,
  RAW_FORMATS,
  VIDEO_FORMATS,
} from './constants.ts'

describe('format lists of SPEC §9', () => {
  it('lists the image, audio, video and negotiation formats', () => {
    expect(IMAGE_FORMATS).toEqual([
      'webp',
      'jpg',
      'jpeg',
      'png',
      'heif',
      'avif',
      'svg',
      'gif',
      'ico',
      'bmp',
      'tiff',
      'tif',
      'heic',
    ])
    expect(AUDIO_FORMATS).toEqual(['mp3', 'aac', 'ogg', 'wma'])
    expect(VIDEO_FORMATS).toEqual(['mp4', 'mov', 'mkv', 'webm'])
    expect(CONTENT_NEGOTIATION_FORMATS).toEqual(['webp', 'jpeg', 'png', 'jpg', 'avif'])
    expect(RAW_FORMATS).toEqual(
      expect.arrayContaining(['pdf', 'zip', 'txt', 'json', 'csv', 'html', 'doc']),
    )
    expect(DEFAULT_CONTENT_TYPE).toBe('application/octet-stream')
    expect(DEFAULT_FORMAT).toBe('bin')
  })

  it('tells a stored image format (delivered inline) from a raw file', () => {
    expect(['png', 'jpeg', 'heif', 'tiff', 'svg'].every(isImageFormat)).toBe(true)
    expect(['pdf', 'jxl', 'bin', 'mp4'].some(isImageFormat)).toBe(false)
  })

  it.each(['png', 'JPG', 'pdf', 'tiff', 'bmp', 'heic', 'heif', 'txt', 'mp4', 'avi', 'mpg', 'mpeg'])(
    'treats %s as transformable',
    (format) => {
      expect(isTransformableFormat(format)).toBe(true)
    },
  )

  it.each(['zip', 'mp3', 'csv', 'bin'])('does not treat %s as transformable', (format) => {
    expect(isTransformableFormat(format)).toBe(false)
  })
})
