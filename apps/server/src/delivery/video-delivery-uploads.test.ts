// Video through the real server (issue 23), what is stored and what is answered at once: uploads
// of real clips made with ffmpeg, their properties in the file JSON, bad input refused with a
// clear 4xx (nothing kept, no temp files left, the server still serving), ranges on originals and
// stills; and a job that fails. Video transforms as jobs: video-delivery-jobs.test.ts.
import { makeClip, withClaimedDuration } from '@tessera/media'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { setOrganisationSettings, type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { fetchWhileQueued, useTestServer } from '../test-suite.ts'
import { ASSETS, describeVideoDelivery, useVideoTemps } from './video-delivery-suite.ts'

const temps = useVideoTemps()
const videoTemps = temps.list

describeVideoDelivery(temps, (suite) => {
  const { upload, get, bytesOf } = suite

  it('stores an MP4 with its duration, size, codec and frames in the file JSON', async () => {
    const { repo } = suite.server.services.context
    const file = await repo.findFile(suite.organisationId, 'videos/clip.mp4')
    const response = await fetch(
      `${suite.server.url}${ASSETS}/org/${suite.organisationId}/files/${file?.id}`,
      {
        headers: { authorization: `Bearer ${suite.token}` },
      },
    )
    expect(response.status).toBe(200)
    const json = (await response.json()) as Record<string, unknown>
    expect(json).toMatchObject({
      format: 'mp4',
      contentType: 'video/mp4',
      assetType: 'video',
      width: 64,
      height: 48,
      codec: 'h264',
      video: { codec: 'h264', frames: 50, frameRate: 25, audioCodec: 'aac' },
    })
    expect(json.duration).toBeCloseTo(2, 1)
  })

  it.each([
    ['webm', 'clip.webm', 'vp9', 'video/webm'],
    ['mkv', 'clip.mkv', 'h264', 'video/x-matroska'],
    ['mov', 'clip.mov', 'h264', 'video/quicktime'],
    ['avi', 'clip.avi', 'mpeg4', 'video/x-msvideo'],
    ['mpg', 'clip.mpeg', 'mpeg1video', 'video/mpeg'],
  ] as const)('stores a %s video', async (format, name, codec, contentType) => {
    const made = await makeClip({ format, seconds: 1 })
    const stored = await upload(made, name, { path: 'formats' })
    expect(stored.status).toBe(200)
    expect(stored.json).toMatchObject({ format, contentType, assetType: 'video' })
    expect((stored.json.video as { codec: string }).codec).toBe(codec)
  })

  it('refuses disguised, truncated, hours-long and unreadable videos, keeping nothing', async () => {
    const { repo } = suite.server.services.context
    const before = (await repo.listFiles(suite.organisationId, { limit: 1000 })).length
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f0' } })
      .png()
      .toBuffer()
    const mkv = await makeClip({ format: 'mkv' })
    // MPEG-1 holds up to 4095 × 4095: a canvas of 16.7 MP, over VIDEO_MAX_PIXELS (8.3 MP).
    const canvas = await makeClip({
      format: 'mpg',
      width: 4094,
      height: 4094,
      seconds: 0.08,
      source: 'color=c=black',
    })
    const cases: [Buffer, string, number, string][] = [
      [canvas, 'canvas.mpg', 422, 'video_too_large'],
      [suite.clip, 'disguised.webm', 415, 'extension_mismatch'],
      [png, 'disguised.mp4', 415, 'extension_mismatch'],
      [
        suite.clip.subarray(0, Math.floor(suite.clip.length / 2)),
        'truncated.mp4',
        422,
        'invalid_video',
      ],
      [withClaimedDuration(mkv, 36_000), 'hours.mkv', 422, 'video_too_long'],
    ]
    for (const [data, name, status, code] of cases) {
      const answer = await upload(data, name)
      expect([name, answer.status, answer.json.code]).toEqual([name, status, code])
      expect(typeof answer.json.message).toBe('string')
    }
    expect((await repo.listFiles(suite.organisationId, { limit: 1000 })).length).toBe(before)
    expect(await videoTemps()).toEqual([])
    // The server keeps serving.
    expect((await get('original/videos/clip.mp4')).status).toBe(200)
  })

  it('answers ranges of the original, inline with its type', async () => {
    const whole = await get('original/videos/clip.mp4')
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('video/mp4')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('content-disposition')).toBeNull()
    expect((await bytesOf(whole)).equals(suite.clip)).toBe(true)
    const part = await get('original/videos/clip.mp4', { range: 'bytes=10-109' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${suite.clip.length}`)
    expect((await bytesOf(part)).equals(suite.clip.subarray(10, 110))).toBe(true)
    const outside = await get('original/videos/clip.mp4', {
      range: `bytes=${suite.clip.length + 5}-`,
    })
    expect(outside.status).toBe(416)
    await outside.arrayBuffer()
  })

  it('answers a still at once: the first frame, or the frame vid.frame picks', async () => {
    const first = await get('t.toFormat(f:png)/videos/clip.mp4')
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/png')
    const meta = await sharp(await bytesOf(first)).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 48])
    const later = await get('vid.frame(t:1.5)~t.resize(w:32)/videos/clip.mp4')
    expect(later.status).toBe(200)
    expect(later.headers.get('content-type')).toBe('image/jpeg')
    const small = await sharp(await bytesOf(later)).metadata()
    expect([small.width, small.height]).toEqual([32, 24])
    // Every image operation works on a still, t.merge of another file included.
    const horse = await suite.server.services.context.repo.findFile(
      suite.organisationId,
      'samples/horse.png',
    )
    const merged = await get(`vid.frame(t:1)~t.merge(i:${horse?.id},w:16,h:16)/videos/clip.mp4`)
    expect(merged.status).toBe(200)
    expect((await sharp(await bytesOf(merged)).metadata()).width).toBe(64)
    const past = await get('vid.frame(t:9)/videos/clip.mp4')
    expect(past.status).toBe(400)
    expect(((await past.json()) as { message: string }).message).toContain('vid.frame')
  })
})

describe.each<TestDatabaseKind>(testDatabases('server'))('a video job that fails on %s', (kind) => {
  const suite = useTestServer(kind, () => ({
    VIDEO_MAX_OUTPUT_BYTES: '2048',
    VIDEO_TEMP_DIR: temps.dir(),
    LOOKUP_TTL_MS: '0',
  }))

  beforeAll(async () => {
    await setOrganisationSettings(suite.server, 'demo', { strictTransformations: false })
  })

  it('fails once with a clear 4xx, is not retried or stuck, and leaves no temp files', async () => {
    const token = await suite.server.createToken()
    const body = new FormData()
    body.set('file', new Blob([await makeClip({ width: 160, height: 120, seconds: 2 })]), 'big.mp4')
    const stored = await fetch(`${suite.server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(stored.status).toBe(200)
    const path = `${suite.server.url}/v2/demo/t.toFormat(f:mp4,q:100)/big.mp4`
    const answer = await fetchWhileQueued(path, {}, { pollMs: 200, tries: 300 })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ code: 'output_too_large' })
    // Asked again: the failed job's answer at once, not a new job.
    const again = await fetch(path)
    expect(again.status).toBe(400)
    await again.arrayBuffer()
    expect(await videoTemps()).toEqual([])
  })
})
