// Video end to end through the real server (issue 23): uploads of real clips made with ffmpeg,
// their properties in the file JSON, ranges on originals and derived videos, stills at once,
// video transforms as jobs (202 until stored), the GIF/WebP → MP4 case, and bad input refused
// with a clear 4xx, nothing kept, no temp files left, the server still serving.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeClip, readProperties, withClaimedDuration } from '@tessera/media'
import { signUrl } from '@tessera/url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSignedUrlOrganisation,
  startTestServer,
  type TestDatabaseKind,
  type TestServer,
  testDatabases,
} from '../test-server.ts'

const ASSETS = '/service/panel/assets/v1.0'

// Each server here makes its ffmpeg temp directories in its own folder (VIDEO_TEMP_DIR), so
// what is left there is this file's own.
let temps: string
const videoTemps = () => readdir(temps)

beforeAll(async () => {
  temps = await mkdtemp(join(tmpdir(), 'tessera-vtemps-'))
})
afterAll(async () => {
  await rm(temps, { recursive: true, force: true })
})

describe.each<TestDatabaseKind>(testDatabases('server'))('video delivery on %s', (kind) => {
  let server: TestServer
  let token: string
  let organisationId: string
  let clip: Buffer

  const upload = async (data: Buffer, fileName: string, fields: Record<string, string> = {}) => {
    const body = new FormData()
    for (const [key, value] of Object.entries(fields)) body.set(key, value)
    body.set('file', new Blob([data]), fileName)
    const response = await fetch(`${server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    })
    return { status: response.status, json: (await response.json()) as Record<string, unknown> }
  }
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v2/demo/${path}`, { headers })

  /** Asks until the job is done (202 meanwhile), as a client does. */
  async function whenDone(path: string, headers: Record<string, string> = {}) {
    const first = await get(path, headers)
    if (first.status !== 202) return first
    expect(first.headers.get('retry-after')).toBe('1')
    for (let attempt = 0; attempt < 300; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const next = await get(path, headers)
      if (next.status !== 202) return next
      await next.arrayBuffer()
    }
    throw new Error(`${path} stayed 202`)
  }
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer())

  beforeAll(async () => {
    server = await startTestServer(kind, {
      VIDEO_MAX_SECONDS: '30',
      // The demo's strict transformations are switched off below: rows are read fresh.
      LOOKUP_TTL_MS: '0',
      VIDEO_TEMP_DIR: temps,
      VIDEO_CONCURRENCY: '2',
      VIDEO_THREADS: '1',
      ANON_AI_RUNS_PER_DAY: '1000',
    })
    token = await server.createToken()
    const demo = await server.services.context.repo.findOrganisationByCloudName('demo')
    organisationId = demo?.id as string
    // Most tests here ask unsigned URLs; strict transformations have a test of their own below.
    await server.services.context.repo.updateOrganisationSettings(organisationId, {
      strictTransformations: false,
    })
    clip = await makeClip({ width: 64, height: 48, seconds: 2, fps: 25, audio: true })
    const stored = await upload(clip, 'clip.mp4', { path: 'videos' })
    expect(stored.status).toBe(200)
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('stores an MP4 with its duration, size, codec and frames in the file JSON', async () => {
    const { repo } = server.services.context
    const file = await repo.findFile(organisationId, 'videos/clip.mp4')
    const response = await fetch(`${server.url}${ASSETS}/org/${organisationId}/files/${file?.id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
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
    const { repo } = server.services.context
    const before = (await repo.listFiles(organisationId, { limit: 1000 })).length
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
      [clip, 'disguised.webm', 415, 'extension_mismatch'],
      [png, 'disguised.mp4', 415, 'extension_mismatch'],
      [clip.subarray(0, Math.floor(clip.length / 2)), 'truncated.mp4', 422, 'invalid_video'],
      [withClaimedDuration(mkv, 36_000), 'hours.mkv', 422, 'video_too_long'],
    ]
    for (const [data, name, status, code] of cases) {
      const answer = await upload(data, name)
      expect([name, answer.status, answer.json.code]).toEqual([name, status, code])
      expect(typeof answer.json.message).toBe('string')
    }
    expect((await repo.listFiles(organisationId, { limit: 1000 })).length).toBe(before)
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
    expect((await bytesOf(whole)).equals(clip)).toBe(true)
    const part = await get('original/videos/clip.mp4', { range: 'bytes=10-109' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${clip.length}`)
    expect((await bytesOf(part)).equals(clip.subarray(10, 110))).toBe(true)
    const outside = await get('original/videos/clip.mp4', { range: `bytes=${clip.length + 5}-` })
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
    const horse = await server.services.context.repo.findFile(organisationId, 'samples/horse.png')
    const merged = await get(`vid.frame(t:1)~t.merge(i:${horse?.id},w:16,h:16)/videos/clip.mp4`)
    expect(merged.status).toBe(200)
    expect((await sharp(await bytesOf(merged)).metadata()).width).toBe(64)
    const past = await get('vid.frame(t:9)/videos/clip.mp4')
    expect(past.status).toBe(400)
    expect(((await past.json()) as { message: string }).message).toContain('vid.frame')
  })

  it('resizes a video as a job, charged per minute, answered with ranges once stored', async () => {
    const { repo } = server.services.context
    const credits = (await repo.findOrganisationById(organisationId))?.credits
    const done = await whenDone('t.resize(w:32,h:24)/videos/clip.mp4')
    expect(done.status).toBe(200)
    expect(done.headers.get('content-type')).toBe('video/mp4')
    const data = await bytesOf(done)
    const read = await readProperties(data)
    expect(read).toMatchObject({ codec: 'h264', width: 32, height: 24, frames: 50 })
    expect(read.duration).toBeCloseTo(2, 1)
    expect((await repo.findOrganisationById(organisationId))?.credits).toBe((credits as number) - 1)
    const part = await get('t.resize(w:32,h:24)/videos/clip.mp4', { range: 'bytes=0-99' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${data.length}`)
    expect((await bytesOf(part)).equals(data.subarray(0, 100))).toBe(true)
    // A HEAD says ranges are taken, as players ask before they fetch.
    const head = await fetch(`${server.url}/v2/demo/t.resize(w:32,h:24)/videos/clip.mp4`, {
      method: 'HEAD',
    })
    expect(head.headers.get('accept-ranges')).toBe('bytes')
    expect(head.headers.get('content-length')).toBe(String(data.length))
    // The same chain again is a cache hit, charged nothing.
    expect((await get('t.resize(w:32,h:24)/videos/clip.mp4')).status).toBe(200)
    expect((await repo.findOrganisationById(organisationId))?.credits).toBe((credits as number) - 1)
  })

  it('trims, rotates and writes WebM', async () => {
    const done = await whenDone(
      'vid.trim(s:0.5,d:1)~t.rotate(a:90)~t.toFormat(f:webm)/videos/clip.mp4',
    )
    expect(done.status).toBe(200)
    expect(done.headers.get('content-type')).toBe('video/webm')
    const read = await readProperties(await bytesOf(done))
    expect(read).toMatchObject({ codec: 'vp9', width: 48, height: 64, frames: 25 })
    expect(read.duration).toBeCloseTo(1, 1)
  })

  it('turns an animated GIF and an animated WebP into MP4', async () => {
    const gif = await makeClip({ format: 'gif', seconds: 1, fps: 10 })
    expect((await upload(gif, 'anim.gif', { path: 'anims' })).status).toBe(200)
    const webp = await sharp(gif, { animated: true }).webp().toBuffer()
    expect((await upload(webp, 'anim.webp', { path: 'anims' })).status).toBe(200)
    for (const name of ['anim.gif', 'anim.webp']) {
      const done = await whenDone(`t.resize(w:32)~t.toFormat(f:mp4)/anims/${name}`)
      expect(done.status).toBe(200)
      expect(done.headers.get('content-type')).toBe('video/mp4')
      const read = await readProperties(await bytesOf(done))
      expect(read).toMatchObject({ codec: 'h264', width: 32, height: 24 })
      expect(read.frames).toBeGreaterThanOrEqual(9)
    }
  })

  it('asks signed URLs of an organisation that requires them, for videos too', async () => {
    const { repo } = server.services.context
    const { organisation, key } = await createSignedUrlOrganisation(server, 'secure-video')
    const stored = await repo.findFile(organisationId, 'videos/clip.mp4')
    if (stored === undefined) throw new Error('no clip')
    const { storageKey, hash, size, format, contentType, width, height, video } = stored
    await repo.upsertFile(organisation.id, {
      path: 'clip.mp4',
      name: 'clip.mp4',
      ...{ storageKey, hash, size, format, contentType, width, height, video },
    })
    const url = `${server.url}/v2/secure-video/t.resize(w:16,h:12)/clip.mp4`
    const unsigned = await fetch(url)
    expect(unsigned.status).toBe(401)
    await unsigned.arrayBuffer()
    const signed = await signUrl(url, {
      accessKey: key.accessKey,
      token: key.secret,
      expirySeconds: 300,
    })
    // A video costs credits: an organisation without them is told so, and nothing is queued.
    const broke = await fetch(signed)
    expect(broke.status).toBe(402)
    expect(await broke.json()).toMatchObject({ code: 'insufficient_credits' })
    await repo.grantCredits(organisation.id, 5, 'test', 'video-test')
    let answer = await fetch(signed)
    for (let attempt = 0; answer.status === 202 && attempt < 300; attempt++) {
      await answer.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 200))
      answer = await fetch(signed)
    }
    expect(answer.status).toBe(200)
    expect(await readProperties(await bytesOf(answer))).toMatchObject({ width: 16, height: 12 })
    expect((await repo.findOrganisationById(organisation.id))?.credits).toBe(4)
  })

  it('asks a signature of a video job where strict transformations are on, not of a still', async () => {
    const { repo } = server.services.context
    // A new organisation has strict transformations on and signed URLs off.
    const organisation = await repo.createOrganisation({
      cloudName: 'strict-video',
      name: 'Strict',
    })
    await repo.grantCredits(organisation.id, 5, 'test', 'strict-video')
    const stored = await repo.findFile(organisationId, 'videos/clip.mp4')
    if (stored === undefined) throw new Error('no clip')
    const { storageKey, hash, size, format, contentType, width, height, video } = stored
    await repo.upsertFile(organisation.id, {
      path: 'clip.mp4',
      name: 'clip.mp4',
      ...{ storageKey, hash, size, format, contentType, width, height, video },
    })
    const base = `${server.url}/v2/strict-video`
    const unsigned = await fetch(`${base}/t.resize(w:16,h:12)/clip.mp4`)
    expect(unsigned.status).toBe(401)
    const refusal = (await unsigned.json()) as { code: string; message: string }
    expect(refusal.code).toBe('strict_transformations')
    expect(refusal.message).toContain('t.resize')
    const still = await fetch(`${base}/t.toFormat(f:png)/clip.mp4`)
    expect(still.status).toBe(200)
    await still.arrayBuffer()
    const key = await repo.createSigningKey(organisation.id)
    const signed = await signUrl(`${base}/t.resize(w:16,h:12)/clip.mp4`, {
      accessKey: key.accessKey,
      token: key.secret,
      expirySeconds: 300,
    })
    let answer = await fetch(signed)
    expect(answer.status).toBe(202)
    // Until it is done, so no job of this test is running when the next one looks.
    for (let attempt = 0; answer.status === 202 && attempt < 300; attempt++) {
      await answer.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 200))
      answer = await fetch(signed)
    }
    expect(answer.status).toBe(200)
    await answer.arrayBuffer()
    expect((await repo.findOrganisationById(organisation.id))?.credits).toBe(4)
  })

  it("signs a visitor's video chain on the demo, as an AI chain, and leaves a still unsigned", async () => {
    const sign = async (path: string) => {
      const response = await fetch(`${server.url}/service/public/playground/v1.0/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${server.url}/v2/demo/${path}` }),
      })
      expect(response.status).toBe(200)
      return ((await response.json()) as { url: string }).url
    }
    expect(await sign('t.resize(w:16,h:12)/videos/clip.mp4')).toContain('pbs=')
    expect(await sign('t.toFormat(f:png)/videos/clip.mp4')).not.toContain('pbs=')
    expect(await sign('t.resize(w:16)/samples/horse.png')).not.toContain('pbs=')
  })

  it('refuses what video does not do before any work, naming it', async () => {
    const { repo } = server.services.context
    // Nothing queued: nothing charged.
    const before = (await repo.findOrganisationById(organisationId))?.credits
    const blur = await get('t.blur(s:2)/videos/clip.mp4')
    expect(blur.status).toBe(400)
    expect(((await blur.json()) as { message: string }).message).toContain('t.blur')
    const huge = await get('t.resize(w:12000,h:12000)/videos/clip.mp4')
    expect(huge.status).toBe(422)
    expect(await huge.json()).toMatchObject({ code: 'video_too_large' })
    const ai = await get('vsr.upscale()/videos/clip.mp4')
    expect(ai.status).toBe(501)
    expect(((await ai.json()) as { message: string }).message).toContain('video')
    const image = await get('t.toFormat(f:mp4)/samples/horse.png')
    expect(image.status).toBe(400)
    expect(((await image.json()) as { message: string }).message).toContain('t.toFormat')
    expect((await repo.findOrganisationById(organisationId))?.credits).toBe(before)
    expect(await videoTemps()).toEqual([])
  })
})

describe.each<TestDatabaseKind>(testDatabases('server'))('a video job that fails on %s', (kind) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(kind, {
      VIDEO_MAX_OUTPUT_BYTES: '2048',
      VIDEO_TEMP_DIR: temps,
      LOOKUP_TTL_MS: '0',
    })
    const { repo } = server.services.context
    const demo = await repo.findOrganisationByCloudName('demo')
    await repo.updateOrganisationSettings(demo?.id as string, { strictTransformations: false })
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('fails once with a clear 4xx, is not retried or stuck, and leaves no temp files', async () => {
    const token = await server.createToken()
    const body = new FormData()
    body.set('file', new Blob([await makeClip({ width: 160, height: 120, seconds: 2 })]), 'big.mp4')
    const stored = await fetch(`${server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(stored.status).toBe(200)
    const path = `${server.url}/v2/demo/t.toFormat(f:mp4,q:100)/big.mp4`
    let answer = await fetch(path)
    for (let attempt = 0; answer.status === 202 && attempt < 300; attempt++) {
      await answer.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 200))
      answer = await fetch(path)
    }
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ code: 'output_too_large' })
    // Asked again: the failed job's answer at once, not a new job.
    const again = await fetch(path)
    expect(again.status).toBe(400)
    await again.arrayBuffer()
    expect(await videoTemps()).toEqual([])
  })
})
