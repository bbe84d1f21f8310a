// Encoding a job's result in its output format (sharp's encoders, and BMP by hand), after the
// output byte limit of the formats whose size their dimensions decide.
import type { Sharp } from 'sharp'
import { encodeBmp } from './bmp.ts'
import { EngineError, MESSAGES } from './errors.ts'
import { CONTENT_TYPES, type OutputFormat } from './formats.ts'
import type { EngineOptions } from './options.ts'
import { checkOutputBytes } from './output-size.ts'
import { framesOf, type Pipeline } from './pipeline.ts'
import type { OutputSettings } from './step.ts'

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 }

/** An encoded image. */
export interface EncodedImage {
  data: Buffer
  format: OutputFormat
  contentType: string
  width: number
  /** Height of one frame for an animation. */
  height: number
}

function configureOutput(
  image: Sharp,
  output: OutputSettings,
  options: Readonly<EngineOptions>,
  animation: { delay?: number[]; loop?: number } | undefined,
): Sharp {
  let configured = image
  if (output.density !== undefined) {
    // withDensity keeps the input's EXIF; an empty withExif drops it again.
    configured = configured.withDensity(output.density).withExif({})
  }
  const quality = output.quality
  const frames = animation ?? {}
  switch (output.format) {
    case 'jpeg':
      return configured.jpeg({ quality: quality ?? 80, mozjpeg: false })
    case 'png': {
      const palette = output.paletteQuality
      return configured.png(
        palette !== undefined && palette < 100
          ? { compressionLevel: 6, palette: true, quality: palette }
          : { compressionLevel: 6 },
      )
    }
    case 'webp':
      return configured.webp({ quality: quality ?? 80, effort: 4, ...frames })
    case 'avif':
      return configured.avif({ quality: quality ?? 50, effort: options.avifEffort })
    case 'heif':
      return configured.heif({
        compression: 'av1',
        quality: quality ?? 50,
        effort: options.avifEffort,
      })
    case 'gif':
      return configured.gif(frames)
    case 'tiff':
      return configured.tiff({ compression: 'lzw' })
    default:
      throw new EngineError('unsupported_format', MESSAGES.unsupportedFormat(output.format))
  }
}

/** Runs the rest of the pipeline and encodes the result as `output` says. */
export async function encode(
  pipeline: Pipeline,
  output: OutputSettings,
  options: Readonly<EngineOptions>,
  animation: { delay?: number[]; loop?: number } | undefined,
): Promise<EncodedImage> {
  const format = output.format
  checkOutputBytes(format, pipeline, options.maxOutputBytes)
  if (format === 'bmp') {
    const image = await pipeline.raw()
    const data = encodeBmp(image)
    return {
      data,
      format,
      contentType: CONTENT_TYPES.bmp,
      width: image.width,
      height: image.height,
    }
  }
  if (format === 'jpeg' && pipeline.alpha) {
    // JPEG has no alpha: show transparent areas on white rather than libvips' black.
    const next = { width: pipeline.width, height: pipeline.height, alpha: false }
    await pipeline.pipe('flatten', (image) => image.flatten({ background: WHITE }), next)
  }
  const { data, info } = await pipeline.encode((image) =>
    configureOutput(image, output, options, animation),
  )
  const { height } = framesOf(info)
  return { data, format, contentType: CONTENT_TYPES[format], width: info.width, height }
}
