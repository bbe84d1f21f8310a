// The settings of video work and what it answers: a probe of a video, a transcoded result.
import { availableParallelism } from 'node:os'
import type { VideoOutputFormat, VideoPlan } from './video-chain.ts'

/** The limits and resources of video work. */
export interface VideoSettings {
  /** Longest video (seconds) probed as acceptable and transformed (`VIDEO_MAX_SECONDS`). */
  maxSeconds: number
  /** Most pixels of one frame, in and out (`VIDEO_MAX_PIXELS`). */
  maxPixels: number
  /** Largest result (`VIDEO_MAX_OUTPUT_BYTES`). */
  maxOutputBytes: number
  /** Time limit of one ffmpeg run, ms (`VIDEO_TIMEOUT_MS`); the process is killed past it. */
  timeoutMs: number
  /** ffmpeg processes at once (`VIDEO_CONCURRENCY`); the others wait. */
  concurrency: number
  /** Threads of one ffmpeg process (`VIDEO_THREADS`). */
  threads: number
  /** Where the private temp directories go (default: the OS's). */
  tempDir?: string
  /** Whether creation sweeps directories dead processes left (`sweep`); default true. */
  sweepOnStart?: boolean
}

/** Defaults of `VideoSettings`. */
export const DEFAULT_VIDEO_SETTINGS: Readonly<VideoSettings> = {
  maxSeconds: 600,
  maxPixels: 3840 * 2160,
  maxOutputBytes: 64 * 1024 * 1024,
  timeoutMs: 120_000,
  concurrency: Math.max(1, Math.floor(availableParallelism() / 2)),
  threads: 2,
}

/** What `probe` reads from a video (or an animation ffmpeg reads, such as a GIF). */
export interface VideoProbe {
  /** ffprobe's container name (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `gif`…). */
  container: string
  /** Width as displayed (a rotation in the metadata applied). */
  width: number
  height: number
  /** Seconds. */
  duration: number
  /** The video stream's codec (`h264`, `vp9`, `mpeg1video`…). */
  codec: string
  /** Frames per second (average). */
  frameRate: number
  /** Frames of the video stream (counted by the container, else duration × frame rate). */
  frames: number
  /** The first audio stream's codec, if there is one. */
  audioCodec?: string
  /** Bits per second of the whole file, when known. */
  bitRate?: number
}

/** A transcoded video. */
export interface VideoResult {
  data: Buffer
  format: VideoOutputFormat
  contentType: string
  width: number
  height: number
  /** Seconds, as ffprobe reads the result. */
  duration: number
  /** What each operation did. */
  steps: VideoPlan['steps']
}
