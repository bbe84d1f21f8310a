import { describe, expect, it } from 'vitest'
import { cmsImage, sampleImage } from './images.ts'

describe('cmsImage', () => {
  it('redoes the resize per width, keeps the aspect and the rest of the chain, adds f_auto', () => {
    const image = cmsImage('/v2/demo/t.resize(w:480,h:320)~t.grey()/samples/coffee.png', 480)
    expect(image.src).toBe('/v2/demo/t.resize(w:480,h:320)~t.grey()/samples/coffee.png?f_auto=true')
    expect(image.srcSet?.split(', ')).toEqual([
      '/v2/demo/t.resize(w:320,h:213)~t.grey()/samples/coffee.png?f_auto=true 320w',
      '/v2/demo/t.resize(w:480,h:320)~t.grey()/samples/coffee.png?f_auto=true 480w',
      '/v2/demo/t.resize(w:640,h:427)~t.grey()/samples/coffee.png?f_auto=true 640w',
      '/v2/demo/t.resize(w:720,h:480)~t.grey()/samples/coffee.png?f_auto=true 720w',
      '/v2/demo/t.resize(w:960,h:640)~t.grey()/samples/coffee.png?f_auto=true 960w',
    ])
  })

  it('keeps a width-only resize width-only and an absolute base as it is', () => {
    const image = cmsImage('http://cdn.test/v2/demo/t.resize(w:960)/samples/rocket.jpg', 320)
    expect(image.src).toBe('http://cdn.test/v2/demo/t.resize(w:320)/samples/rocket.jpg?f_auto=true')
    expect(image.srcSet).toContain('t.resize(w:640)/samples/rocket.jpg?f_auto=true 640w')
  })

  it('leaves f_auto out when the chain sets the format, and other URLs alone', () => {
    const webp = cmsImage('/v2/demo/t.resize(w:480,h:320)~t.toFormat(f:webp)/samples/a.jpg', 480)
    expect(webp.src).toBe('/v2/demo/t.resize(w:480,h:320)~t.toFormat(f:webp)/samples/a.jpg')
    expect(cmsImage('https://example.com/a.png', 480)).toEqual({ src: 'https://example.com/a.png' })
  })

  it('gives a small fixed-size image no srcset', () => {
    expect(cmsImage('/v2/demo/t.resize(w:120,h:40)~t.grey()/samples/camera.png', 120)).toEqual({
      src: '/v2/demo/t.resize(w:120,h:40)~t.grey()/samples/camera.png?f_auto=true',
    })
  })
})

describe('sampleImage', () => {
  it('offers no candidate wider than the sample: its own width is the widest', () => {
    const image = sampleImage('/d', 'rocket.jpg', {
      maxWidth: 640,
      aspect: 640 / 427,
      naturalWidth: 640,
      sizes: '100vw',
    })
    expect(image.src).toBe('/d/v2/demo/t.resize(w:640,h:427)/samples/rocket.jpg?f_auto=true')
    expect(image.srcSet.split(', ')).toEqual([
      '/d/v2/demo/t.resize(w:320,h:213)/samples/rocket.jpg?f_auto=true 320w',
      '/d/v2/demo/t.resize(w:480,h:320)/samples/rocket.jpg?f_auto=true 480w',
      '/d/v2/demo/t.resize(w:640,h:427)/samples/rocket.jpg?f_auto=true 640w',
    ])
    expect(image.sizes).toBe('100vw')
  })

  it('offers every width up to twice the shown width without a natural width', () => {
    const image = sampleImage('/d', 'chelsea.png', { maxWidth: 400 })
    expect(image.srcSet.split(', ').map((candidate) => candidate.split(' ')[1])).toEqual([
      '320w',
      '480w',
      '640w',
      '720w',
    ])
  })
})
