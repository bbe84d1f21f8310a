import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CARD_SIZES, ResponsiveImage, type ResponsiveImageProps } from './responsive-image.tsx'

// The <img> alone: React also writes a preload <link> for an eager image, which a page hoists.
const render = (props: ResponsiveImageProps) =>
  /<img [^>]*\/>/.exec(renderToStaticMarkup(createElement(ResponsiveImage, props)))?.[0]

const SAMPLE = 'https://tessera.test/v2/demo/t.resize(w:800,h:400)/samples/chelsea.png'
const at = (w: number) =>
  `https://tessera.test/v2/demo/t.resize(w:${w},h:${w / 2})/samples/chelsea.png?f_auto=true`

describe('ResponsiveImage', () => {
  it('offers one resized URL per width with sizes, and keeps the loading hints', () => {
    const html = render({
      url: SAMPLE,
      width: 320,
      height: 160,
      className: 'card-media',
      sizes: CARD_SIZES,
      loading: 'eager',
      fetchPriority: 'high',
      decoding: 'async',
    })
    expect(html).toBe(
      `<img class="card-media" src="${at(320)}" srcSet="${at(320)} 320w, ${at(480)} 480w, ${at(640)} 640w" sizes="(max-width: 767px) 100vw, 400px" alt="" width="320" height="160" loading="eager" fetchPriority="high" decoding="async"/>`,
    )
  })

  it('writes a URL it cannot resize as it is, without srcset or sizes or unset hints', () => {
    const html = render({
      url: 'https://cdn.test/a.png',
      width: 480,
      height: 320,
      className: 'app-page-image',
      sizes: '(max-width: 767px) 100vw, 560px',
      alt: 'An example',
    })
    expect(html).toBe(
      '<img class="app-page-image" src="https://cdn.test/a.png" alt="An example" width="480" height="320"/>',
    )
  })
})
