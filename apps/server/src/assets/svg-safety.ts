// Whether an uploaded SVG is safe to store and serve (issue 9). The SVG is parsed as XML (with
// @xmldom/xmldom, so entity-encoded text is judged decoded and prefixes by their namespace) and
// every element and attribute must be on an allow-list. Nothing in it may make a browser run
// script or make any renderer (a browser, librsvg in sharp) fetch: references are internal
// (`#id`) or inline raster images, and CSS may not import or point at URLs. An SVG that breaks a
// rule is refused, not rewritten: the stored file is always exactly the uploaded one.
import {
  DOMParser,
  type Attr as XmlAttr,
  type Element as XmlElement,
  type Node as XmlNode,
} from '@xmldom/xmldom'

const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK_NS = 'http://www.w3.org/1999/xlink'
const XML_NS = 'http://www.w3.org/XML/1998/namespace'
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

// Editor metadata that browsers and librsvg ignore (Inkscape, Sodipodi, RDF, Dublin Core,
// Creative Commons, Adobe): kept so files exported by drawing tools are accepted.
const INERT_NS = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://purl.org/dc/elements/1.1/',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
  'http://ns.adobe.com/AdobeIllustrator/10.0/',
  'http://ns.adobe.com/Graphs/1.0/',
  'http://ns.adobe.com/Extensibility/1.0/',
  'http://ns.adobe.com/SaveForWeb/1.0/',
  'http://ns.adobe.com/Variables/1.0/',
])

/** SVG elements that draw, group, define or describe (no script, foreignObject, or old tref). */
const ELEMENTS = new Set(
  `svg g defs symbol use desc title metadata switch a view
  path rect circle ellipse line polyline polygon text tspan textPath
  image marker pattern clipPath mask linearGradient radialGradient stop style
  filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting
  feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR
  feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight
  feSpecularLighting feSpotLight feTile feTurbulence
  animate animateMotion animateTransform set mpath`.split(/\s+/),
)

/** Attributes without a namespace that SVG elements may carry. */
const ATTRIBUTES = new Set(
  `id class style lang tabindex role version baseProfile x y x1 x2 y1 y2 cx cy r rx ry fx fy fr
  width height d points pathLength transform viewBox preserveAspectRatio
  fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap stroke-linejoin
  stroke-miterlimit stroke-dasharray stroke-dashoffset opacity color color-interpolation
  color-interpolation-filters color-rendering display visibility overflow clip clip-path
  clip-rule clipPathUnits mask maskUnits maskContentUnits marker marker-start marker-mid
  marker-end markerWidth markerHeight markerUnits refX refY orient filter filterUnits
  primitiveUnits flood-color flood-opacity lighting-color stop-color stop-opacity offset
  gradientUnits gradientTransform spreadMethod href patternUnits patternContentUnits
  patternTransform font-family font-size font-size-adjust font-stretch font-style font-variant
  font-weight text-anchor text-decoration text-rendering dominant-baseline alignment-baseline
  baseline-shift letter-spacing word-spacing writing-mode direction unicode-bidi dx dy rotate
  textLength lengthAdjust startOffset method spacing side shape-rendering image-rendering
  paint-order vector-effect mix-blend-mode isolation in in2 result mode type values
  tableValues slope intercept amplitude exponent operator k1 k2 k3 k4 order kernelMatrix
  divisor bias targetX targetY edgeMode kernelUnitLength preserveAlpha surfaceScale
  diffuseConstant specularConstant specularExponent scale xChannelSelector yChannelSelector
  stdDeviation radius azimuth elevation z pointsAtX pointsAtY pointsAtZ limitingConeAngle
  baseFrequency numOctaves seed stitchTiles requiredFeatures requiredExtensions
  systemLanguage enable-background attributeName attributeType begin dur end min max
  restart repeatCount repeatDur fill calcMode keyTimes keySplines keyPoints from to by
  additive accumulate path target media xml:space space
  cursor pointer-events`.split(/\s+/),
)

const ANIMATIONS = new Set(['animate', 'set', 'animateMotion', 'animateTransform'])

/** Why an SVG is refused. */
export class UnsafeSvgError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'UnsafeSvgError'
  }
}

// Inline raster images need no fetch; an embedded SVG could hold its own references.
const INLINE_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,[a-z0-9+/=\s]*$/i

/** A reference that stays inside the document (`#id`) or is an inline raster image. */
function safeReference(value: string, element: string): boolean {
  const compact = value.replace(/[\s\p{Cc}]+/gu, '')
  if (compact === '' || compact.startsWith('#')) return true
  return (element === 'image' || element === 'feImage') && INLINE_IMAGE.test(value.trim())
}

/** CSS that neither imports, nor points at a URL other than `#id`, nor hides either in escapes. */
function cssProblem(css: string): string | undefined {
  if (css.includes('\\')) return 'CSS escapes are not accepted'
  if (/@import|@font-face|@namespace/i.test(css))
    return 'CSS @import and @font-face are not accepted'
  if (/expression\s*\(|javascript:|-moz-binding|behavior\s*:/i.test(css)) {
    return 'CSS that runs script is not accepted'
  }
  for (const match of css.matchAll(/url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi)) {
    if (!(match[2] ?? '').trim().startsWith('#')) return 'CSS url() must point inside the file'
  }
  if (/url\s*\(/i.test(css.replace(/url\s*\(\s*(['"]?)\s*#[^)]*\)/gi, ''))) {
    return 'CSS url() must point inside the file'
  }
  if (/image-set\s*\(|src\s*\(/i.test(css)) return 'CSS image sources are not accepted'
  return undefined
}

function checkOne(element: XmlElement): void {
  const namespace = element.namespaceURI ?? ''
  const name = element.localName ?? element.nodeName
  if (INERT_NS.has(namespace)) {
    // Editor metadata may hold only more metadata and text.
    for (const child of Array.from(element.childNodes as ArrayLike<XmlNode>)) {
      if (child.nodeType === 1 && !INERT_NS.has((child as XmlElement).namespaceURI ?? '')) {
        throw new UnsafeSvgError(`<${(child as XmlElement).nodeName}> inside editor metadata`)
      }
    }
  } else if (namespace !== SVG_NS || !ELEMENTS.has(name)) {
    throw new UnsafeSvgError(`<${element.nodeName}> elements are not accepted`)
  }
  for (const attribute of Array.from(element.attributes as ArrayLike<XmlAttr>)) {
    const attrNs = attribute.namespaceURI ?? ''
    const local = attribute.localName ?? attribute.name
    const value = attribute.value
    if (attrNs === XMLNS_NS || attribute.name === 'xmlns' || attribute.name.startsWith('xmlns:')) {
      continue
    }
    if (INERT_NS.has(attrNs)) continue
    const known =
      // Editor metadata elements are never drawn: any attribute, but values are still checked.
      INERT_NS.has(namespace) ||
      (attrNs === '' && (ATTRIBUTES.has(local) || /^data-[\w-]+$/.test(local))) ||
      (attrNs === XLINK_NS &&
        ['href', 'title', 'show', 'actuate', 'type', 'role'].includes(local)) ||
      (attrNs === XML_NS && ['space', 'lang', 'base'].includes(local))
    if (!known) throw new UnsafeSvgError(`the attribute ${attribute.name} is not accepted`)
    if (local === 'base') throw new UnsafeSvgError('xml:base is not accepted')
    if (local === 'href' && !safeReference(value, name)) {
      throw new UnsafeSvgError(`${attribute.name} must point inside the file`)
    }
    if (local === 'style' || /url\s*\(/i.test(value)) {
      const problem = cssProblem(value)
      if (problem !== undefined) throw new UnsafeSvgError(problem)
    }
    if (/javascript:|vbscript:|data:\s*text/i.test(value.replace(/[\s\p{Cc}]+/gu, ''))) {
      throw new UnsafeSvgError(`the attribute ${attribute.name} holds a script URL`)
    }
    if (ANIMATIONS.has(name) && local === 'attributeName' && /href|^on|style/i.test(value)) {
      throw new UnsafeSvgError(`animating ${value} is not accepted`)
    }
  }
  if (name === 'style' && namespace === SVG_NS) {
    const problem = cssProblem(element.textContent ?? '')
    if (problem !== undefined) throw new UnsafeSvgError(problem)
  }
}

/**
 * Checks every element below `root`, depth first without recursion (a deeply nested file once
 * overflowed the stack: issue 19 finding 11), within the depth and element caps.
 */
function checkTree(root: XmlElement, limits: SvgSafetyLimits): void {
  const stack: { element: XmlElement; depth: number }[] = [{ element: root, depth: 1 }]
  let elements = 0
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { element, depth } = next
    if (depth > limits.maxDepth) {
      throw new UnsafeSvgError(`elements nest more than ${limits.maxDepth} deep`)
    }
    elements++
    if (elements > limits.maxElements) {
      throw new UnsafeSvgError(`more than ${limits.maxElements} elements`)
    }
    checkOne(element)
    const children = element.childNodes as ArrayLike<XmlNode>
    // Pushed last to first, so the first child is checked first and errors name it.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i] as XmlNode
      if (child.nodeType === 1) stack.push({ element: child as XmlElement, depth: depth + 1 })
      // Processing instructions (xml-stylesheet would fetch CSS) have no place inside.
      if (child.nodeType === 7) {
        throw new UnsafeSvgError('processing instructions are not accepted')
      }
    }
  }
}

/** How far the check walks: deeper or larger documents are refused, not walked. */
export interface SvgSafetyLimits {
  maxDepth: number
  maxElements: number
}

/**
 * The check's own bounds: parsing is its cost (100,000 flat elements took 4.7 s on a busy
 * machine), so larger documents are refused by a count before parsing. librsvg renders at most
 * 20,000 elements by default (the engine's `SVG_MAX_ELEMENTS`, checked when an upload is
 * probed); the check allows more, so that limit, raised to 50,000, is still the one that
 * answers. Drawing tools nest a few dozen deep.
 */
export const SVG_SAFETY_LIMITS: Readonly<SvgSafetyLimits> = { maxDepth: 256, maxElements: 50_000 }

/**
 * Checks an SVG document against the allow-list. Anything that goes wrong inside the check is
 * the document's fault: it throws only `UnsafeSvgError` (the upload's 400).
 *
 * @throws {UnsafeSvgError} naming the first thing that is not accepted.
 */
export function assertSafeSvg(text: string, limits: SvgSafetyLimits = SVG_SAFETY_LIMITS): void {
  try {
    check(text, limits)
  } catch (error) {
    if (error instanceof UnsafeSvgError) throw error
    throw new UnsafeSvgError(`the file could not be checked: ${String(error).slice(0, 120)}`)
  }
}

/** Start tags in markup (`<` then a letter), counted without parsing. */
function startTags(text: string, stopAfter: number): number {
  let count = 0
  for (
    let at = text.indexOf('<');
    at !== -1 && count <= stopAfter;
    at = text.indexOf('<', at + 1)
  ) {
    const next = text.charCodeAt(at + 1) | 0x20
    if (next >= 0x61 && next <= 0x7a) count++
  }
  return count
}

function check(text: string, limits: SvgSafetyLimits): void {
  // Counted before parsing, which costs far more per element than this scan.
  if (startTags(text, limits.maxElements) > limits.maxElements) {
    throw new UnsafeSvgError(`more than ${limits.maxElements} elements`)
  }
  // A DTD internal subset declares entities (entity expansion, external entities): refused
  // before parsing; the parser itself never fetches.
  if (/<!DOCTYPE[^>[]*\[/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new UnsafeSvgError('DTD declarations (entities) are not accepted')
  }
  let failure: string | undefined
  const parser = new DOMParser({
    onError: (level: string, message: string) => {
      if (level !== 'warning') failure ??= message
    },
  })
  let document: ReturnType<DOMParser['parseFromString']>
  try {
    document = parser.parseFromString(text, 'image/svg+xml')
  } catch (error) {
    throw new UnsafeSvgError(`not well-formed XML: ${(error as Error).message.split('\n')[0]}`)
  }
  if (failure !== undefined) {
    throw new UnsafeSvgError(`not well-formed XML: ${failure.split('\n')[0]}`)
  }
  for (const node of Array.from(document.childNodes as ArrayLike<XmlNode>)) {
    if (node.nodeType === 7 && (node as unknown as { target: string }).target !== 'xml') {
      throw new UnsafeSvgError('processing instructions are not accepted')
    }
  }
  const root = document.documentElement
  if (root === null || root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
    throw new UnsafeSvgError('the root element must be an SVG <svg>')
  }
  checkTree(root, limits)
}
