// Every AI operation that runs here, through the real server on PGlite and PostgreSQL: by
// delivery URL (202 while the job runs, then 200 with the image, with outcomes checked on the
// pixels), the transformation context of each detection (what it found), and each runnable
// prediction as a job (its result carries the same `data`). One AI service serves both servers,
// so each model loads once in this file; inputs are small, as the models are slow on 2 cores.
import { readFile } from 'node:fs/promises'
import { createAi } from '@tessera/engine'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient } from '../test-client.ts'
import { startTestServer, storeTestFile, type TestServer, testDatabases } from '../test-server.ts'
import type { ContextStep, TransformationContextAnswer } from '../transformation/context.ts'
import { TRANSFORMATION_CONTEXT } from '../transformation/paths.ts'

const SAMPLES = new URL('../../demo/samples/', import.meta.url)
const ORG = '/service/panel/organization/v1.0'
const PREDICTIONS = '/service/panel/transformation/v1.0/org'
/** Generous: a model's first call loads it, and the machine is shared. */
const SLOW = 300_000
const WORDS = 'Tessera reads every word 2026'

const ai = createAi()
afterAll(async () => {
  await ai.close()
})

interface Pixels {
  data: Buffer
  width: number
  height: number
  channels: number
}

async function pixelsOf(input: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(input).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

function at(image: Pixels, x: number, y: number): number[] {
  const start = (y * image.width + x) * image.channels
  return Array.from(image.data.subarray(start, start + image.channels))
}

/** The four corners, 2 px in. */
function corners(image: Pixels): number[][] {
  const { width, height } = image
  return [
    at(image, 2, 2),
    at(image, width - 3, 2),
    at(image, 2, height - 3),
    at(image, width - 3, height - 3),
  ]
}

async function textImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120">
    <rect width="100%" height="100%" fill="#fff"/>
    <text x="24" y="76" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#111">${WORDS}</text>
  </svg>`
  return await sharp(Buffer.from(svg)).png().toBuffer()
}

describe.each(testDatabases('server'))('AI operations over HTTP on %s', (kind) => {
  let server: TestServer
  let client: ReturnType<typeof createTestClient>
  type Account = Awaited<ReturnType<typeof client.signup>>
  let owner: Account
  let token: string
  const files = new Map<string, Buffer>()

  async function addFile(path: string, image: Buffer) {
    await storeTestFile(server, owner.organisation._id, path, image)
    files.set(path, image)
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { FREE_PLAN_CREDITS: '1000' }, { ai })
    client = createTestClient(server)
    owner = await client.signup()
    const { repo, lookups } = server.services.context
    // Unsigned URLs run AI operations only without strict transformations (on for new
    // organisations; strict-transformations tests cover them).
    await repo.updateOrganisationSettings(owner.organisation._id, { strictTransformations: false })
    lookups.forgetOrganisation({
      id: owner.organisation._id,
      cloudName: owner.organisation.cloudName,
    })
    for (const name of ['horse.png', 'astronaut.png', 'astronaut-wm.png']) {
      await addFile(`in/${name}`, await readFile(new URL(name, SAMPLES)))
    }
    const cat = await readFile(new URL('chelsea.png', SAMPLES))
    await addFile('in/small.png', await sharp(cat).resize(96).png().toBuffer())
    await addFile('in/text.png', await textImage())
    const created = await client.call('POST', `${ORG}/${owner.organisation._id}/tokens`, {
      cookie: owner.cookie,
      body: { name: 'ai tests' },
    })
    token = (created.body as { token: string }).token
  })
  afterAll(async () => {
    await server?.stop()
  })

  const urlOf = (pattern: string, path: string) =>
    `/v2/${owner.organisation.cloudName}/${pattern}/${path}`

  /** Fetches a delivery URL: first 202 (queued), then 200 once the job has stored the image. */
  async function deliver(pattern: string, path: string): Promise<Buffer> {
    const url = `${server.url}${urlOf(pattern, path)}`
    let response = await fetch(url)
    expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(202)
    expect(response.headers.get('retry-after')).toBe('1')
    await response.arrayBuffer()
    for (let attempt = 0; attempt < 3000 && response.status === 202; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      response = await fetch(url)
      if (response.status === 202) await response.arrayBuffer()
    }
    expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^image\//)
    return Buffer.from(await response.arrayBuffer())
  }

  /** The context of a URL already delivered: read from the cache, no job run again. */
  async function contextOf(pattern: string, path: string): Promise<ContextStep[]> {
    const before = await server.services.jobs.drain()
    expect(before).toBe(0)
    const answer = await client.call(
      'GET',
      `${TRANSFORMATION_CONTEXT}?url=${encodeURIComponent(urlOf(pattern, path))}`,
      { token },
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(await server.services.jobs.drain()).toBe(0)
    return (answer.body as TransformationContextAnswer).context.steps
  }

  it(
    'erase.bg and remove.bg leave the horse opaque and the corners transparent',
    async () => {
      for (const pattern of ['erase.bg()', 'remove.bg()', 'erase.bg(shadow:true)']) {
        const image = await pixelsOf(await deliver(pattern, 'in/horse.png'))
        expect(image).toMatchObject({ width: 400, height: 328, channels: 4 })
        for (const corner of corners(image)) expect(corner[3], pattern).toBeLessThan(10)
        expect(at(image, 200, 164)[3], pattern).toBeGreaterThan(245)
      }
    },
    SLOW,
  )

  it(
    'sr.upscale doubles the size, after t.resize in the same chain',
    async () => {
      const image = await pixelsOf(
        await deliver('t.resize(w:64)~sr.upscale(t:2x,model:Flash)', 'in/small.png'),
      )
      expect(image).toMatchObject({ width: 128, height: 86 })
    },
    SLOW,
  )

  it(
    'ic.crop by face, object and foreground answers the size asked',
    async () => {
      for (const [pattern, path] of [
        ['ic.crop(w:120,h:80,g:face)', 'in/astronaut.png'],
        ['ic.crop(w:120,h:80,g:object,obj:person)', 'in/astronaut.png'],
        ['ic.crop(w:100,h:100,g:foreground)', 'in/horse.png'],
      ] as const) {
        const image = await pixelsOf(await deliver(pattern, path))
        expect([image.width, image.height], pattern).toEqual(
          pattern.includes('w:120') ? [120, 80] : [100, 100],
        )
      }
    },
    SLOW,
  )

  it(
    'wm.remove brings the watermarked region at least halfway back to the original',
    async () => {
      const original = await pixelsOf(files.get('in/astronaut.png') as Buffer)
      const marked = await pixelsOf(files.get('in/astronaut-wm.png') as Buffer)
      const mask = await pixelsOf(await readFile(new URL('astronaut-wm-mask.png', SAMPLES)))
      const error = (image: Pixels) => {
        let sum = 0
        let count = 0
        for (let i = 0; i < mask.width * mask.height; i++) {
          if ((mask.data[i * mask.channels] as number) < 128) continue
          for (let c = 0; c < 3; c++) {
            sum += Math.abs(
              (image.data[i * image.channels + c] as number) -
                (original.data[i * original.channels + c] as number),
            )
          }
          count += 3
        }
        return sum / count
      }
      const cleaned = await pixelsOf(
        await deliver('wm.remove(rem_text:true)', 'in/astronaut-wm.png'),
      )
      expect(cleaned).toMatchObject({ width: 512, height: 512 })
      expect(error(cleaned)).toBeLessThanOrEqual(error(marked) / 2)
    },
    SLOW,
  )

  it(
    'wm.remove(rem_logo:true) without a box is refused with the reason, not a smeared photo',
    async () => {
      // Without a box, the logo would be looked for across the whole photo: its own light
      // detail would be repainted with it, so the request is refused and says what to give.
      const pattern = 'wm.remove(rem_logo:true)'
      const url = `${server.url}${urlOf(pattern, 'in/astronaut.png')}`
      let response = await fetch(url)
      expect(response.status).toBe(202)
      await response.arrayBuffer()
      for (let attempt = 0; attempt < 3000 && response.status === 202; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        response = await fetch(url)
        if (response.status === 202) await response.arrayBuffer()
      }
      // A derive job that fails for a client error is not tried again, and delivery answers
      // it as a request that ran at once would: 400 with the refusal's code and message.
      expect(response.status).toBe(400)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('invalid_transformation')
      expect(body.message).toMatch(/without a box.*box1=x_y_w_h/)
    },
    SLOW,
  )

  it(
    'im.mask fills the face black and leaves the rest alone',
    async () => {
      const original = await pixelsOf(files.get('in/astronaut.png') as Buffer)
      const masked = await pixelsOf(
        await deliver('im.mask(d:face,m:fill_black)', 'in/astronaut.png'),
      )
      expect(masked).toMatchObject({ width: 512, height: 512 })
      let blackened = 0
      for (let i = 0; i < 512 * 512; i++) {
        const was = original.data.subarray(i * 3, i * 3 + 3)
        const now = masked.data.subarray(i * masked.channels, i * masked.channels + 3)
        if (now.every((value) => value === 0) && !was.every((value) => value === 0)) blackened++
      }
      // A face is thousands of pixels; the picture is 262 144.
      expect(blackened).toBeGreaterThan(2000)
      expect(blackened).toBeLessThan(100_000)
      expect(at(masked, 20, 500).slice(0, 3)).toEqual(at(original, 20, 500))
    },
    SLOW,
  )

  it(
    'shadow.gen puts the horse on the colour asked, still dark in the middle',
    async () => {
      const image = await pixelsOf(await deliver('shadow.gen(bgc:ff0000)', 'in/horse.png'))
      expect(image).toMatchObject({ width: 400, height: 328 })
      const [red, green, blue] = at(image, 2, 2)
      expect(red).toBeGreaterThan(200)
      expect(green).toBeLessThan(60)
      expect(blue).toBeLessThan(60)
      expect(
        at(image, 200, 164)
          .slice(0, 3)
          .every((value) => value < 60),
      ).toBe(true)
    },
    SLOW,
  )

  it(
    'qr.generate draws a code that qr.scan reads back, as the context shows',
    async () => {
      const text = Buffer.from('https://tessera.example/qr').toString('base64url')
      const pattern = `qr.generate(i:${text},w:160,h:160)~qr.scan()`
      const image = await pixelsOf(await deliver(pattern, 'in/small.png'))
      expect(image).toMatchObject({ width: 160, height: 160 })
      const steps = await contextOf(pattern, 'in/small.png')
      expect(steps[1]).toMatchObject({
        identifier: 'qr',
        name: 'scan',
        data: { found: true, text: 'https://tessera.example/qr' },
      })
    },
    SLOW,
  )

  const hasPerson = (labels: { label?: string; name?: string }[]) =>
    labels.some((item) => (item.label ?? item.name) === 'person')

  // Each detection passes the image on unchanged and reports in the context.
  const DETECTIONS: [string, string, (data: Record<string, unknown>) => void][] = [
    ['ocr.extract()', 'in/text.png', (data) => expect(data.text).toBe(WORDS)],
    ['wmc.detect()', 'in/astronaut-wm.png', (data) => expect(data.watermark).toBe(true)],
    ['nsfw.detect()', 'in/astronaut.png', (data) => expect(data.nsfw).toBe(false)],
    [
      'od.detect()',
      'in/astronaut.png',
      (data) => expect(hasPerson(data.objects as { label: string }[])).toBe(true),
    ],
    [
      'oc.detect()',
      'in/astronaut.png',
      (data) => expect((data.counts as Record<string, number>).person).toBeGreaterThanOrEqual(1),
    ],
    [
      'cos.detect()',
      'in/horse.png',
      (data) => {
        expect(data.objectPercentage).toBeGreaterThan(20)
        expect(data.objectPercentage).toBeLessThan(100)
      },
    ],
    [
      'imc.detect(dist_perc:20)',
      'in/horse.png',
      (data) => expect(data).toMatchObject({ centred: true, box: expect.any(Object) }),
    ],
    ['dbt.detect()', 'in/horse.png', (data) => expect(data.type).toBe('plain')],
    [
      'awsRek.detectLabels()',
      'in/astronaut.png',
      (data) => expect(hasPerson(data.labels as { name: string }[])).toBe(true),
    ],
    ['awsRek.moderation()', 'in/astronaut.png', (data) => expect(data.nsfw).toBe(false)],
    [
      'googleVis.detectLabels()',
      'in/astronaut.png',
      (data) => expect(hasPerson(data.labels as { name: string }[])).toBe(true),
    ],
  ]

  it.each(DETECTIONS)(
    '%s on %s: the image unchanged, the finding in the context',
    async (pattern, path, check) => {
      const image = await pixelsOf(await deliver(pattern, path))
      const original = await pixelsOf(files.get(path) as Buffer)
      expect([image.width, image.height]).toEqual([original.width, original.height])
      const [step] = await contextOf(pattern, path)
      expect(step?.identifier).toBe(pattern.split('.')[0])
      check(step?.data ?? {})
    },
    SLOW,
  )

  it(
    'runs each runnable prediction as a job, with the same data in its result',
    async () => {
      const cases: [string, Record<string, unknown>, (result: Record<string, unknown>) => void][] =
        [
          [
            'erase_bg',
            { image: 'in/horse.png' },
            (result) => expect(result).toMatchObject({ format: 'png', width: 400 }),
          ],
          [
            'sr_upscale',
            { image: 'in/small.png', type: '2x', model: 'Flash' },
            (result) => expect(result).toMatchObject({ width: 192, height: 128 }),
          ],
          [
            'wm_remove',
            { image: 'in/astronaut-wm.png', removeText: true },
            (result) => expect(result).toMatchObject({ width: 512, height: 512 }),
          ],
          [
            'ic_crop',
            {
              image: 'in/astronaut.png',
              requiredWidth: 64,
              requiredHeight: 48,
              gravityTowards: 'face',
            },
            (result) => expect(result).toMatchObject({ width: 64, height: 48 }),
          ],
          [
            'od_detect',
            { image: 'in/astronaut.png' },
            (result) =>
              expect(hasPerson((result.data as { objects: { label: string }[] }).objects)).toBe(
                true,
              ),
          ],
          [
            'ocr_extract',
            { image: 'in/text.png' },
            (result) => expect((result.data as { text: string }).text).toBe(WORDS),
          ],
        ]
      for (const [prediction, body, check] of cases) {
        const created = await client.call(
          'POST',
          `${PREDICTIONS}/${owner.organisation._id}/predictions/${prediction}`,
          { token, body },
        )
        expect(created.status, `${prediction}: ${JSON.stringify(created.body)}`).toBe(202)
        const { jobId } = created.body as { jobId: string }
        let job: { status: string; result?: Record<string, unknown>; error?: string } = {
          status: 'queued',
        }
        for (let attempt = 0; attempt < 3000; attempt++) {
          const answer = await client.call(
            'GET',
            `${PREDICTIONS}/${owner.organisation._id}/predictions/jobs/${jobId}`,
            { token },
          )
          job = answer.body as typeof job
          if (job.status === 'done' || job.status === 'failed') break
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        expect(job.status, `${prediction}: ${job.error}`).toBe('done')
        expect(job.result?.data, prediction).toBeDefined()
        check(job.result ?? {})
      }
    },
    SLOW,
  )
})
