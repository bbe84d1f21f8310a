// The video operations of the language (issue 23): the `vid` plugin (a Tessera extension), the
// video formats of `t.toFormat`, and which stored formats are videos.
import { describe, expect, it } from 'vitest'
import { CATALOGUE, isImageFormat, isVideoFormat, parsePattern } from './index.ts'

describe('video in the URL language', () => {
  it('reads vid.frame and vid.trim with typed parameters on a video', () => {
    const { value, issues } = parsePattern('vid.trim(s:1.5,d:2)~t.resize(w:480)~vid.frame(t:0.5)', {
      format: 'mp4',
    })
    expect(issues).toEqual([])
    expect(value.map((operation) => [operation.spec?.key, operation.params])).toEqual([
      ['vid.trim', { s: 1.5, d: 2 }],
      ['t.resize', expect.objectContaining({ w: 480 })],
      ['vid.frame', { t: 0.5 }],
    ])
    expect(value.every((operation) => operation.spec?.runnable === true)).toBe(true)
  })

  it('refuses vid.* on an image and values out of range', () => {
    expect(parsePattern('vid.frame(t:1)', { format: 'png' }).issues[0]).toMatchObject({
      code: 'format_not_allowed',
    })
    expect(parsePattern('vid.trim(s:-1)', { format: 'mp4' }).issues).toHaveLength(1)
    expect(parsePattern('vid.frame(t:abc)', { format: 'mp4' }).issues).toHaveLength(1)
  })

  it('takes mp4, webm and gif in t.toFormat', () => {
    for (const f of ['mp4', 'webm', 'gif']) {
      const { value, issues } = parsePattern(`t.toFormat(f:${f})`, { format: 'mov' })
      expect(issues).toEqual([])
      expect(value[0]?.params.f).toBe(f)
    }
    expect(parsePattern('t.toFormat(f:mkv)').issues).toHaveLength(1)
  })

  it('says the vid plugin is a Tessera extension, and keeps AI video operations unavailable', () => {
    expect(CATALOGUE.getPlugin('vid')?.description).toContain('Tessera extension')
    for (const key of ['vsr.upscale', 'wmv.remove']) {
      const [plugin = '', method = ''] = key.split('.')
      expect(CATALOGUE.getOperation(plugin, method)?.runnable).toBe(false)
    }
  })

  it('tells videos from images', () => {
    for (const format of ['mp4', 'mov', 'mkv', 'webm', 'avi', 'mpg', 'mpeg']) {
      expect([isVideoFormat(format), isImageFormat(format)]).toEqual([true, false])
    }
    expect(['png', 'gif', 'pdf', 'bin'].some(isVideoFormat)).toBe(false)
  })
})
