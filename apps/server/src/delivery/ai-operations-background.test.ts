// The AI operations that cut out a subject, by delivery URL through the real server (202 while
// the job runs, then 200 with the image, outcomes checked on the pixels): background removal,
// a generated shadow and the crops that look for a face, an object or the foreground. The other
// operations: ai-operations-images.test.ts and ai-operations-detections.test.ts, so the
// background model's heavy runs are not all in one file.
import { expect, it } from 'vitest'
import { at, corners, describeAiOperations, pixelsOf, SLOW } from './ai-operations-suite.ts'

describeAiOperations((suite) => {
  const { deliver } = suite

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
})
