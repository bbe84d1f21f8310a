import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createVideo,
  makeClip,
  readProperties,
  VideoError,
  withClaimedDuration,
  withRotation,
} from './index.ts'
import { createProcessPool } from './video-process.ts'

const op = (key: string, params: Record<string, unknown> = {}) => ({ spec: { key }, params })

let dir: string
let video: ReturnType<typeof createVideo>
let clip: Buffer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tessera-media-test-'))
  video = createVideo({ tempDir: dir, maxSeconds: 60, concurrency: 2, threads: 1 })
  clip = await makeClip({ width: 64, height: 48, seconds: 2, fps: 25, audio: true })
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function expectNoTempFiles() {
  expect(await readdir(dir)).toEqual([])
}

async function failure(work: Promise<unknown>): Promise<VideoError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(VideoError)
  return error as VideoError
}

describe('probe', () => {
  it('reads duration, size, codec, frame rate, frames and audio of an MP4', async () => {
    const found = await video.probe(clip, { verify: true })
    expect(found).toMatchObject({ width: 64, height: 48, codec: 'h264', frameRate: 25, frames: 50 })
    expect(found.duration).toBeCloseTo(2, 1)
    expect(found.audioCodec).toBe('aac')
    await expectNoTempFiles()
  })

  it.each([
    ['webm', 'vp9'],
    ['mkv', 'h264'],
    ['mov', 'h264'],
    ['avi', 'mpeg4'],
    ['mpg', 'mpeg1video'],
  ] as const)('reads a %s clip (%s)', async (format, codec) => {
    const made = await makeClip({ format, seconds: 1 })
    const found = await video.probe(made, { verify: true, format })
    expect(found).toMatchObject({ width: 64, height: 48, codec })
    expect(found.duration).toBeGreaterThan(0.8)
    expect(found.duration).toBeLessThan(1.3)
  })

  it('refuses a truncated file, garbage and an image, leaving no temp files', async () => {
    for (const bad of [
      clip.subarray(0, Math.floor(clip.length / 2)),
      Buffer.from('not a video at all, just words'.repeat(50)),
    ]) {
      expect((await failure(video.probe(bad, { verify: true }))).code).toBe('invalid_video')
    }
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#f00' },
    })
      .png()
      .toBuffer()
    expect((await failure(video.probe(png, { verify: true }))).code).toBe('invalid_video')
    await expectNoTempFiles()
  })

  it('refuses a file whose moov atom comes first but whose frames are cut off', async () => {
    const fast = await makeClip({ width: 160, height: 120, seconds: 2 })
    // ffmpeg writes the index last: a faststart copy made by remuxing keeps frames after it.
    const remuxed = await video.transform(fast, [op('t.toFormat', { f: 'mp4' })], { format: 'mp4' })
    const cut = remuxed.data.subarray(0, Math.floor(remuxed.data.length * 0.6))
    expect((await failure(video.probe(cut, { verify: true }))).code).toBe('invalid_video')
    await expectNoTempFiles()
  })

  it('refuses a header that claims ten hours, and frames over the pixel limit', async () => {
    const long = withClaimedDuration(await makeClip({ format: 'mkv' }), 36_000)
    const error = await failure(video.probe(long))
    expect(error.code, error.message).toBe('too_long')
    expect(error.message).toContain('VIDEO_MAX_SECONDS')
    const small = createVideo({ tempDir: dir, maxPixels: 1000 })
    expect((await failure(small.probe(clip))).code).toBe('too_many_pixels')
    await expectNoTempFiles()
  })
})

describe('the demuxer and the temp directory', () => {
  it('reads bytes only as their sniffed format', async () => {
    const webm = await makeClip({ format: 'webm' })
    expect((await video.probe(webm, { format: 'webm' })).codec).toBe('vp9')
    expect((await failure(video.probe(webm, { format: 'mp4' }))).code).toBe('invalid_video')
    await expectNoTempFiles()
  })

  it('sweeps directories a dead process left, not those of live runs', async () => {
    const stale = join(dir, 'tessera-video-dead')
    const live = join(dir, 'tessera-video-live')
    await mkdir(stale)
    await mkdir(live)
    const hourAgo = new Date(Date.now() - 3_600_000)
    await utimes(stale, hourAgo, hourAgo)
    const swept = createVideo({ tempDir: dir, timeoutMs: 60_000, sweepOnStart: false })
    expect(await swept.sweep()).toBe(1)
    expect(await readdir(dir)).toEqual(['tessera-video-live'])
    await rm(live, { recursive: true })
  })
})

describe('still', () => {
  it('takes the first frame, or the frame at a time, as a PNG', async () => {
    const first = await video.still(clip)
    const meta = await sharp(first.data).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 48])
    // testsrc2 moves: the frame at 1.5 s differs from the first.
    // With the size known from upload no ffprobe runs first; the frame is the same.
    const known = await video.still(clip, 0, 'mp4', { width: 64, height: 48 })
    expect(known.data.equals(first.data)).toBe(true)
    const small = createVideo({ tempDir: dir, maxPixels: 1000, sweepOnStart: false })
    const refused = await failure(small.still(clip, 0, 'mp4', { width: 64, height: 48 }))
    expect(refused.code).toBe('too_many_pixels')
    const later = await video.still(clip, 1.5)
    expect(later.data.equals(first.data)).toBe(false)
    await expectNoTempFiles()
  })
})

describe('transform', () => {
  it('resizes to an H.264 MP4 keeping duration and frames', async () => {
    const result = await video.transform(clip, [op('t.resize', { w: 32, h: 24 })], {
      format: 'mp4',
    })
    expect(result.contentType).toBe('video/mp4')
    const read = await readProperties(result.data)
    expect(read).toMatchObject({ codec: 'h264', width: 32, height: 24, frames: 50 })
    expect(read.duration).toBeCloseTo(2, 1)
    await expectNoTempFiles()
  })

  it('trims, rotates, crops, flips and writes WebM (VP9) and GIF', async () => {
    const trimmed = await video.transform(
      clip,
      [
        op('vid.trim', { s: 0.5, d: 1 }),
        op('t.rotate', { a: 90 }),
        op('t.toFormat', { f: 'webm' }),
      ],
      { format: 'mp4' },
    )
    const read = await readProperties(trimmed.data)
    expect(read).toMatchObject({ codec: 'vp9', width: 48, height: 64, frames: 25 })
    expect(read.duration).toBeCloseTo(1, 1)
    const cropped = await video.transform(
      clip,
      [
        op('t.extract', { t: 4, l: 8, w: 40, h: 30 }),
        op('t.flip'),
        op('t.flop'),
        op('t.toFormat', { f: 'gif' }),
      ],
      { format: 'mp4' },
    )
    expect(cropped.contentType).toBe('image/gif')
    // GIF has no 4:2:0 rule: odd sides stay.
    expect(await readProperties(cropped.data)).toMatchObject({
      codec: 'gif',
      width: 40,
      height: 30,
    })
    await expectNoTempFiles()
  })

  it('turns an animated GIF into an MP4', async () => {
    const gif = await makeClip({ format: 'gif', seconds: 1, fps: 10 })
    const result = await video.transform(gif, [op('t.toFormat', { f: 'mp4' })], { format: 'gif' })
    const read = await readProperties(result.data)
    expect(read).toMatchObject({ codec: 'h264', width: 64, height: 48 })
    expect(read.duration).toBeCloseTo(1, 0)
  })

  it('reads a rotated video as it is shown: probe, still and output agree', async () => {
    const turned = await withRotation(clip, 90)
    const found = await video.probe(turned, { format: 'mp4' })
    expect([found.width, found.height]).toEqual([48, 64])
    const still = await sharp((await video.still(turned, 0, 'mp4')).data).metadata()
    expect([still.width, still.height]).toEqual([48, 64])
    const result = await video.transform(turned, [op('t.resize', { w: 24 })], { format: 'mp4' })
    expect(await readProperties(result.data)).toMatchObject({ width: 24, height: 32 })
  })

  it('refuses an operation video does not take, naming it', async () => {
    const error = await failure(video.transform(clip, [op('t.blur', { s: 3 })], { format: 'mp4' }))
    expect(error.code).toBe('invalid_operation')
    expect(error.message).toContain('t.blur')
    await expectNoTempFiles()
  })

  it('plans the limits before any work', () => {
    const source = { width: 64, height: 48, duration: 2, format: 'mp4' }
    expect(video.plan([op('t.compress', { q: 40 })], source).quality).toBe(40)
    // t.toFormat's default q (not written) leaves t.compress's quality alone.
    const toWebm = {
      spec: { key: 't.toFormat' },
      params: { f: 'webm', q: '75' },
      values: [{ key: 'f' }],
    }
    expect(video.plan([op('t.compress', { q: 40 }), toWebm], source).quality).toBe(40)
    expect(() => video.plan([op('t.resize', { w: 12000, h: 12000 })], source)).toThrow(
      /VIDEO_MAX_PIXELS/,
    )
    expect(() => video.plan([op('vid.trim', { s: 5 })], source)).toThrow(/vid.trim/)
    const long = { ...source, duration: 3600 }
    expect(() => video.plan([], long)).toThrow(/VIDEO_MAX_SECONDS/)
    expect(video.plan([op('vid.trim', { s: 0, d: 30 })], long).duration).toBe(30)
  })

  it('kills ffmpeg past its time limit and cleans up', async () => {
    const big = await makeClip({ width: 640, height: 480, seconds: 4 })
    const hurried = createVideo({ tempDir: dir, timeoutMs: 100 })
    const error = await failure(
      hurried.transform(big, [op('t.toFormat', { f: 'webm', q: 100 })], { format: 'mp4' }),
    )
    expect(error.code).toBe('timeout')
    await expectNoTempFiles()
    // The service goes on working after a kill.
    expect((await video.probe(clip)).codec).toBe('h264')
  })
})

describe('process pool', () => {
  it('runs at most its size at once', async () => {
    const pool = createProcessPool(2)
    let most = 0
    const runs = Array.from({ length: 5 }, () => {
      const running = pool.run('/bin/sleep', ['0.1'], { timeoutMs: 5000, maxStdoutBytes: 10 })
      most = Math.max(most, pool.active)
      return running
    })
    await Promise.all(runs)
    expect(most).toBe(2)
    expect(pool.active).toBe(0)
  })

  it('kills what runs at close and refuses what comes after', async () => {
    const pool = createProcessPool(1)
    const long = pool.run('/bin/sleep', ['30'], { timeoutMs: 60_000, maxStdoutBytes: 10 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    pool.close()
    await expect(long).rejects.toThrow(/SIGKILL/)
    await expect(
      pool.run('/bin/true', [], { timeoutMs: 1000, maxStdoutBytes: 10 }),
    ).rejects.toThrow(/shutting down/)
  })
})
