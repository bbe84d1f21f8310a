// The ffmpeg and ffprobe arguments every run shares (quiet, bounded, local files only), the demuxer
// of each stored format, and the reading of ffprobe's JSON into a probe.
import { VideoError } from './video-errors.ts'
import type { VideoProbe } from './video-settings.ts'

/** The arguments every ffmpeg run starts with: quiet, no stdin, local files and pipes only. */
export function commonArgs(threads: number): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    // No single allocation over 512 MiB: a forged header cannot make ffmpeg reserve gigabytes.
    '-max_alloc',
    String(512 * 1024 * 1024),
    '-threads',
    String(threads),
    '-filter_threads',
    '1',
  ]
}

/** Input options: only the file and pipe protocols (no network, no concat of other files). */
export const INPUT_GUARD = ['-protocol_whitelist', 'file,pipe', '-probesize', '5000000']

// The demuxer of each stored format: the bytes were sniffed as this format, so ffmpeg reads them
// as it and nothing else (no playlist or concat script can pass for a video).
const DEMUXERS: Readonly<Record<string, string>> = {
  mp4: 'mov',
  mov: 'mov',
  mkv: 'matroska',
  webm: 'matroska',
  avi: 'avi',
  mpg: 'mpeg',
  mpeg: 'mpeg',
  gif: 'gif',
}

/** `-f <demuxer>` for a stored format, nothing for a format without one here. */
export function demuxer(format: string | undefined): string[] {
  const name = format === undefined ? undefined : DEMUXERS[format]
  return name === undefined ? [] : ['-f', name]
}

function ratio(text: unknown): number {
  if (typeof text !== 'string') return 0
  const [a, b] = text.split('/').map(Number)
  if (a === undefined || !Number.isFinite(a)) return 0
  if (b === undefined) return a
  return b > 0 && Number.isFinite(b) ? a / b : 0
}

interface FfprobeStream {
  codec_type?: string
  codec_name?: string
  width?: number
  height?: number
  avg_frame_rate?: string
  r_frame_rate?: string
  nb_frames?: string
  duration?: string
  tags?: Record<string, string>
  side_data_list?: { rotation?: number }[]
}

/** Reads ffprobe's JSON (`-show_format -show_streams`) into a probe; throws invalid_video. */
export function readProbe(text: string): VideoProbe {
  const parsed = JSON.parse(text) as {
    streams?: FfprobeStream[]
    format?: { format_name?: string; duration?: string; bit_rate?: string }
  }
  const video = parsed.streams?.find((stream) => stream.codec_type === 'video')
  const audio = parsed.streams?.find((stream) => stream.codec_type === 'audio')
  if (video === undefined || !video.width || !video.height) {
    throw new VideoError('invalid_video', 'The file has no video stream')
  }
  const duration = Number(parsed.format?.duration ?? video.duration)
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new VideoError(
      'invalid_video',
      'The video has no duration (it may be truncated or corrupt)',
    )
  }
  const frameRate = ratio(video.avg_frame_rate) || ratio(video.r_frame_rate)
  const counted = Number(video.nb_frames)
  const frames =
    Number.isInteger(counted) && counted > 0
      ? counted
      : Math.max(1, Math.round(duration * frameRate))
  const rotation = Number(video.tags?.rotate ?? video.side_data_list?.[0]?.rotation ?? 0)
  const sideways = Math.abs(rotation) % 180 === 90
  const bitRate = Number(parsed.format?.bit_rate)
  return {
    container: parsed.format?.format_name ?? 'unknown',
    width: sideways ? video.height : video.width,
    height: sideways ? video.width : video.height,
    duration,
    codec: video.codec_name ?? 'unknown',
    frameRate: Math.round(frameRate * 1000) / 1000,
    frames,
    ...(audio?.codec_name === undefined ? {} : { audioCodec: audio.codec_name }),
    ...(Number.isFinite(bitRate) && bitRate > 0 ? { bitRate } : {}),
  }
}
