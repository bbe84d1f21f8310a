// The AI detections by delivery URL through the real server, each with the transformation
// context of what it found (read from the cache, no job run again), and each runnable prediction
// as a job (its result carries the same `data`). Inputs are small, as the models are slow on 2
// cores. Operations that change the image: ai-operations-background.test.ts and
// ai-operations-images.test.ts.
import { expect, it } from 'vitest'
import {
  describeAiOperations,
  hasPerson,
  PREDICTIONS,
  pixelsOf,
  SLOW,
  WORDS,
} from './ai-operations-suite.ts'

describeAiOperations((suite) => {
  const { files, deliver, contextOf } = suite

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
        const created = await suite.client.call(
          'POST',
          `${PREDICTIONS}/${suite.owner.organisation._id}/predictions/${prediction}`,
          { token: suite.token, body },
        )
        expect(created.status, `${prediction}: ${JSON.stringify(created.body)}`).toBe(202)
        const { jobId } = created.body as { jobId: string }
        let job: { status: string; result?: Record<string, unknown>; error?: string } = {
          status: 'queued',
        }
        for (let attempt = 0; attempt < 3000; attempt++) {
          const answer = await suite.client.call(
            'GET',
            `${PREDICTIONS}/${suite.owner.organisation._id}/predictions/jobs/${jobId}`,
            { token: suite.token },
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
