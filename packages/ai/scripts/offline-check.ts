// Runs a few models with no network at all (the offline test starts it under `unshare -n`)
// and prints what they found as JSON. Every model loads from its npm package; any attempt to
// reach a hub or CDN fails here.
import sharp from 'sharp'
import { createAi } from '../src/index.ts'
import { decode, paramsOf } from '../src/test-support.ts'

const ai = createAi({ timeoutMs: 600_000 })
try {
  const white = await decode(
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  )
  const code = await ai.run({
    key: 'qr.generate',
    image: white,
    params: paramsOf('qr.generate', { i: 'offline', w: 200, h: 200 }),
  })
  const scan = await ai.run({ key: 'qr.scan', image: code.image, params: paramsOf('qr.scan') })
  const astronaut = await decode('astronaut.png')
  const face = await ai.focus('face', astronaut)
  const objects = await ai.run({
    key: 'od.detect',
    image: astronaut,
    params: paramsOf('od.detect'),
  })
  const upscaled = await ai.run({
    key: 'sr.upscale',
    image: astronaut,
    params: paramsOf('sr.upscale', { model: 'Flash', t: '2x' }),
  })
  console.log(
    JSON.stringify({
      qr: scan.data,
      face,
      objects: objects.data,
      upscaled: [upscaled.image.width, upscaled.image.height],
    }),
  )
} finally {
  await ai.close()
}
