// @tessera/media: what the engine cannot read or write with sharp alone (video, PDF, HEIC/HEIF).

// HEIC/HEIF (HEVC) images through libheif (WebAssembly, in a worker thread).
export {
  createHeicDecoder,
  HEIC_DEFAULT_LIMITS,
  type HeicDecoder,
  HeicError,
  type HeicErrorCode,
  type HeicLimits,
  type HeicPixels,
  isHeic,
} from './heic.ts'
export { createTestHeic, ffmpegPath, type HeicSource } from './heic-make.ts'
// PDF pages through MuPDF (WebAssembly, in a worker thread).
export {
  createPdfRenderer,
  isPdf,
  MAX_PAGE_SIDE_POINTS,
  PDF_DEFAULT_DPI,
  PDF_DEFAULT_LIMITS,
  PDF_DPI_RANGE,
  PdfError,
  type PdfErrorCode,
  type PdfInfo,
  type PdfLimits,
  type PdfPageRequest,
  type PdfPixels,
  type PdfRenderer,
} from './pdf.ts'
export { createTestPdf, type TestPage } from './pdf-make.ts'
// Video (ffmpeg/ffprobe from npm packages, as child processes).
export { createVideo, type Video } from './video.ts'
export { videoBinaries } from './video-binaries.ts'
export {
  answersStill,
  asksVideoFormat,
  type ChainOperation,
  type ChainSource,
  defaultVideoFormat,
  planStill,
  planVideo,
  requestedFormat,
  STILL_FORMATS,
  type StillPlan,
  VIDEO_CONTENT_TYPES,
  VIDEO_OPERATIONS,
  VIDEO_OUTPUT_FORMATS,
  type VideoOutputFormat,
  type VideoPlan,
} from './video-chain.ts'
export { type ClipOptions, makeClip } from './video-clips.ts'
export { isVideoError, VideoError, type VideoErrorCode } from './video-errors.ts'
export {
  DEFAULT_VIDEO_SETTINGS,
  type VideoProbe,
  type VideoResult,
  type VideoSettings,
} from './video-settings.ts'
export {
  type ReadProperties,
  readProperties,
  withClaimedDuration,
  withRotation,
} from './video-test-support.ts'
