// The SVG allow-list (issue 9): each way past the old deny-list is refused, files from drawing
// tools are accepted, and — whatever got through — the renderer (sharp with librsvg, through
// the real engine) fetches nothing: a local server that records requests gets none.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine } from '@tessera/engine'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useLoopbackHost } from '../test-loopback.ts'
import { sniffType } from './files.ts'
import { assertSafeSvg, SVG_SAFETY_LIMITS, UnsafeSvgError } from './svg-safety.ts'

const open = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'

describe('the SVG allow-list', () => {
  it.each([
    [
      'a namespaced script',
      `${open} xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>`,
    ],
    [
      'an XHTML script',
      `${open}><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>`,
    ],
    [
      'entity-encoded javascript: in xlink:href',
      `${open}><a xlink:href="&#106;avascript:alert(1)"><text>x</text></a></svg>`,
    ],
    [
      'hex-encoded javascript: with a tab',
      `${open}><a href="java&#x09;script&#x3a;alert(1)"><text>x</text></a></svg>`,
    ],
    ['CSS @import', `${open}><style>@import url(http://127.0.0.1/x.css);</style></svg>`],
    [
      'CSS url() to another host',
      `${open}><style>rect { fill: url("http://127.0.0.1/p.svg#g") }</style><rect width="1" height="1"/></svg>`,
    ],
    [
      'a CSS escape hiding url(',
      `${open}><rect style="fill: \\75 rl(http://127.0.0.1/x)" width="1" height="1"/></svg>`,
    ],
    [
      'a file: href on an image',
      `${open}><image href="file:///etc/passwd" width="1" height="1"/></svg>`,
    ],
    ['a file: href on use', `${open}><use xlink:href="file:///etc/passwd#x"/></svg>`],
    ['an http image', `${open}><image href="http://127.0.0.1/x.png" width="1" height="1"/></svg>`],
    [
      'a protocol-relative feImage',
      `${open}><filter id="f"><feImage href="//evil.test/x.png"/></filter></svg>`,
    ],
    [
      'an embedded SVG image',
      `${open}><image href="data:image/svg+xml;base64,PHN2Zy8+" width="1" height="1"/></svg>`,
    ],
    [
      'XInclude',
      `${open} xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></svg>`,
    ],
    [
      'an external entity',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
    ],
    [
      'an entity bomb',
      '<!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
    ],
    [
      'an xml-stylesheet',
      '<?xml version="1.0"?><?xml-stylesheet href="http://127.0.0.1/x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>',
    ],
    ['an event handler', `${open} onload="alert(1)"/>`],
    ['an event handler in another case', `${open}><rect ONCLICK="alert(1)"/></svg>`],
    [
      'foreignObject',
      `${open}><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`,
    ],
    [
      'an animated href',
      `${open}><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>`,
    ],
    ['xml:base', `${open} xml:base="http://127.0.0.1/"><use href="#a"/></svg>`],
    [
      'a fill url to another host',
      `${open}><rect width="1" height="1" fill="url(http://127.0.0.1/p.svg#g)"/></svg>`,
    ],
    [
      'a root that is no SVG',
      '<html xmlns="http://www.w3.org/1999/xhtml"><svg xmlns="http://www.w3.org/2000/svg"/></html>',
    ],
    ['markup that is not well-formed', `${open}><rect></svg>`],
  ])('refuses %s', async (_form, text) => {
    expect(() => assertSafeSvg(text)).toThrow()
    // Refused as unsafe, or (no <svg> start the sniffer knows) as a type not stored.
    const refusal = await sniffType(Buffer.from(text)).then(
      () => undefined,
      (error: { status: number; code: string }) => error,
    )
    expect([
      { status: 400, code: 'unsafe_svg' },
      { status: 415, code: 'unsupported_type' },
    ]).toContainEqual({ status: refusal?.status, code: refusal?.code })
  })

  it('accepts drawings with gradients, filters, internal references, inline PNGs and editor metadata', async () => {
    const png = (
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#f00' } })
        .png()
        .toBuffer()
    ).toString('base64')
    const drawing = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Created with Inkscape -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
  xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
  xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"
  width="40" height="40" viewBox="0 0 40 40" inkscape:version="1.3" data-name="Layer 1">
  <sodipodi:namedview id="view" pagecolor="#ffffff"/>
  <metadata><rdf:RDF><dc:title>Logo</dc:title></rdf:RDF></metadata>
  <defs>
    <linearGradient id="g"><stop offset="0" stop-color="#4f46e5"/><stop offset="1" stop-color="#06b6d4"/></linearGradient>
    <filter id="f"><feGaussianBlur stdDeviation="1"/></filter>
    <style><![CDATA[ .mark { fill: url(#g); stroke: #000 } ]]></style>
  </defs>
  <rect id="r" class="mark" width="20" height="20" style="filter: url('#f')"/>
  <use xlink:href="#r" x="20" y="20"/>
  <image href="data:image/png;base64,${png}" width="4" height="4"/>
  <text x="2" y="38" font-family="sans-serif">Hi &amp; bye</text>
</svg>`
    expect(() => assertSafeSvg(drawing)).not.toThrow()
    expect(await sniffType(Buffer.from(drawing))).toMatchObject({ format: 'svg' })
  })
})

describe('the SVG check’s own bounds (issue 19 finding 11)', () => {
  const svgOpen = '<svg xmlns="http://www.w3.org/2000/svg">'
  const nested = (depth: number) => `${svgOpen}${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`

  it('refuses 10,000 nested elements as an unsafe SVG (400), not a stack overflow (500)', async () => {
    expect(() => assertSafeSvg(nested(10_000))).toThrow(UnsafeSvgError)
    expect(() => assertSafeSvg(nested(10_000))).toThrow(/nest more than 256 deep/)
    const refusal = await sniffType(Buffer.from(nested(10_000))).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refusal).toMatchObject({ status: 400, code: 'unsafe_svg' })
  })

  it('walks a document at the depth limit and refuses one level more', () => {
    expect(() => assertSafeSvg(nested(SVG_SAFETY_LIMITS.maxDepth - 1))).not.toThrow()
    expect(() => assertSafeSvg(nested(SVG_SAFETY_LIMITS.maxDepth))).toThrow(UnsafeSvgError)
  })

  it('refuses more elements than its cap before parsing them', () => {
    const many = `${svgOpen}${'<rect/>'.repeat(20)}</svg>`
    expect(() => assertSafeSvg(many, { maxDepth: 10, maxElements: 21 })).not.toThrow()
    expect(() => assertSafeSvg(many, { maxDepth: 10, maxElements: 20 })).toThrow(
      /more than 20 elements/,
    )
  })

  it('checks the first element first, so the refusal names it', () => {
    expect(() => assertSafeSvg(`${svgOpen}<g><script/></g><foreignObject/></svg>`)).toThrow(
      /<script>/,
    )
  })
})

describe('rendering an SVG fetches nothing', () => {
  let dir: string
  const hits: string[] = []
  const server = useLoopbackHost((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end()
  })

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-svg-'))
    const red = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer()
    await writeFile(join(dir, 'red.png'), red)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  // These bypass the allow-list on purpose: the renderer itself must not load them.
  it('loads no http, file or stylesheet reference when the engine renders the SVG', async () => {
    const engine = createEngine()
    const { base } = server
    const svg = `${open} width="8" height="8">
      <style>@import url(${base}/import.css);</style>
      <rect width="8" height="8" fill="#fff"/>
      <image href="${base}/image.png" width="8" height="8"/>
      <image xlink:href="${base}/xlink.png" width="8" height="8"/>
      <image href="file://${dir}/red.png" width="8" height="8"/>
      <filter id="f"><feImage href="${base}/feimage.png"/></filter>
      <use href="${base}/use.svg#x"/>
      <rect width="8" height="8" fill="url(${base}/paint.svg#g)" filter="url(#f)" opacity="0"/>
    </svg>`
    const result = await engine.transform({ input: Buffer.from(svg), operations: [] })
    const { data } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(hits).toEqual([])
    // The local red file was not drawn either: the corner pixel is the white background.
    expect([data[0], data[1], data[2]]).toEqual([255, 255, 255])
  })
})
