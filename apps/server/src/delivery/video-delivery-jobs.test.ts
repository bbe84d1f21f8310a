// Video transforms through the real server (issue 23), as jobs (202 until stored): resizing
// charged per minute and answered with ranges, trims and WebM, the GIF/WebP → MP4 case, signed
// URLs and strict transformations for videos, the playground's signing, and what video does not
// do refused before any work. Uploads, ranges and stills: video-delivery-uploads.test.ts.
import { makeClip, readProperties } from '@tessera/media'
import sharp from 'sharp'
import { expect, it } from 'vitest'
import { createSignedUrlOrganisation, signWithKey } from '../test-server.ts'
import { fetchWhileQueued } from '../test-suite.ts'
import { describeVideoDelivery, useVideoTemps } from './video-delivery-suite.ts'

const temps = useVideoTemps()
const videoTemps = temps.list

describeVideoDelivery(temps, (suite) => {
  const { upload, get, whenDone, bytesOf } = suite

  it('resizes a video as a job, charged per minute, answered with ranges once stored', async () => {
    const { repo } = suite.server.services.context
    const credits = (await repo.findOrganisationById(suite.organisationId))?.credits
    const done = await whenDone('t.resize(w:32,h:24)/videos/clip.mp4')
    expect(done.status).toBe(200)
    expect(done.headers.get('content-type')).toBe('video/mp4')
    const data = await bytesOf(done)
    const read = await readProperties(data)
    expect(read).toMatchObject({ codec: 'h264', width: 32, height: 24, frames: 50 })
    expect(read.duration).toBeCloseTo(2, 1)
    expect((await repo.findOrganisationById(suite.organisationId))?.credits).toBe(
      (credits as number) - 1,
    )
    const part = await get('t.resize(w:32,h:24)/videos/clip.mp4', { range: 'bytes=0-99' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${data.length}`)
    expect((await bytesOf(part)).equals(data.subarray(0, 100))).toBe(true)
    // A HEAD says ranges are taken, as players ask before they fetch.
    const head = await fetch(`${suite.server.url}/v2/demo/t.resize(w:32,h:24)/videos/clip.mp4`, {
      method: 'HEAD',
    })
    expect(head.headers.get('accept-ranges')).toBe('bytes')
    expect(head.headers.get('content-length')).toBe(String(data.length))
    // The same chain again is a cache hit, charged nothing.
    expect((await get('t.resize(w:32,h:24)/videos/clip.mp4')).status).toBe(200)
    expect((await repo.findOrganisationById(suite.organisationId))?.credits).toBe(
      (credits as number) - 1,
    )
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
    const { repo } = suite.server.services.context
    const { organisation, key } = await createSignedUrlOrganisation(suite.server, 'secure-video')
    await suite.copyClipTo(organisation.id)
    const url = `${suite.server.url}/v2/secure-video/t.resize(w:16,h:12)/clip.mp4`
    const unsigned = await fetch(url)
    expect(unsigned.status).toBe(401)
    await unsigned.arrayBuffer()
    const signed = await signWithKey(url, key, 300)
    // A video costs credits: an organisation without them is told so, and nothing is queued.
    const broke = await fetch(signed)
    expect(broke.status).toBe(402)
    expect(await broke.json()).toMatchObject({ code: 'insufficient_credits' })
    await repo.grantCredits(organisation.id, 5, 'test', 'video-test')
    const answer = await fetchWhileQueued(signed, {}, { pollMs: 200, tries: 300 })
    expect(answer.status).toBe(200)
    expect(await readProperties(await bytesOf(answer))).toMatchObject({ width: 16, height: 12 })
    expect((await repo.findOrganisationById(organisation.id))?.credits).toBe(4)
  })

  it('asks a signature of a video job where strict transformations are on, not of a still', async () => {
    const { repo } = suite.server.services.context
    // A new organisation has strict transformations on and signed URLs off.
    const organisation = await repo.createOrganisation({
      cloudName: 'strict-video',
      name: 'Strict',
    })
    await repo.grantCredits(organisation.id, 5, 'test', 'strict-video')
    await suite.copyClipTo(organisation.id)
    const base = `${suite.server.url}/v2/strict-video`
    const unsigned = await fetch(`${base}/t.resize(w:16,h:12)/clip.mp4`)
    expect(unsigned.status).toBe(401)
    const refusal = (await unsigned.json()) as { code: string; message: string }
    expect(refusal.code).toBe('strict_transformations')
    expect(refusal.message).toContain('t.resize')
    const still = await fetch(`${base}/t.toFormat(f:png)/clip.mp4`)
    expect(still.status).toBe(200)
    await still.arrayBuffer()
    const key = await repo.createSigningKey(organisation.id)
    const signed = await signWithKey(`${base}/t.resize(w:16,h:12)/clip.mp4`, key, 300)
    const queued = await fetch(signed)
    expect(queued.status).toBe(202)
    await queued.arrayBuffer()
    // Until it is done, so no job of this test is running when the next one looks.
    const answer = await fetchWhileQueued(signed, {}, { pollMs: 200, tries: 300 })
    expect(answer.status).toBe(200)
    await answer.arrayBuffer()
    expect((await repo.findOrganisationById(organisation.id))?.credits).toBe(4)
  })

  it("signs a visitor's video chain on the demo, as an AI chain, and leaves a still unsigned", async () => {
    const sign = async (path: string) => {
      const response = await fetch(`${suite.server.url}/service/public/playground/v1.0/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${suite.server.url}/v2/demo/${path}` }),
      })
      expect(response.status).toBe(200)
      return ((await response.json()) as { url: string }).url
    }
    expect(await sign('t.resize(w:16,h:12)/videos/clip.mp4')).toContain('pbs=')
    expect(await sign('t.toFormat(f:png)/videos/clip.mp4')).not.toContain('pbs=')
    expect(await sign('t.resize(w:16)/samples/horse.png')).not.toContain('pbs=')
  })

  it('refuses what video does not do before any work, naming it', async () => {
    const { repo } = suite.server.services.context
    // Nothing queued: nothing charged.
    const before = (await repo.findOrganisationById(suite.organisationId))?.credits
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
    expect((await repo.findOrganisationById(suite.organisationId))?.credits).toBe(before)
    expect(await videoTemps()).toEqual([])
  })
})
