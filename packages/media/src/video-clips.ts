// Real clips made with ffmpeg's lavfi sources, for tests and benchmarks (nothing binary is
// committed): a test pattern of the asked size, length, frame rate and container.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { videoBinaries } from './video-binaries.ts'
import { createProcessPool } from './video-process.ts'

/** What `makeClip` makes. */
export interface ClipOptions {
  width?: number
  height?: number
  /** Seconds. */
  seconds?: number
  fps?: number
  /** `mp4` (H.264), `webm` (VP9), `mkv` (H.264), `mov` (H.264), `avi` (MPEG-4), `mpg` (MPEG-1), `gif`. */
  format?: 'mp4' | 'webm' | 'mkv' | 'mov' | 'avi' | 'mpg' | 'gif'
  /** Frames between keyframes (H.264/VP9; ffmpeg's default when unset). */
  gop?: number
  /** A sine tone as an audio stream (not for gif). */
  audio?: boolean
  /** A lavfi source: `testsrc2` (default: a moving pattern), `color=c=black`… */
  source?: string
}

const CODECS: Record<string, string[]> = {
  mp4: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  mkv: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  mov: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  webm: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-pix_fmt', 'yuv420p'],
  avi: ['-c:v', 'mpeg4'],
  mpg: ['-c:v', 'mpeg1video', '-f', 'mpeg'],
  gif: ['-f', 'gif'],
}
const AUDIO: Record<string, string[]> = {
  webm: ['-c:a', 'libopus'],
  mpg: ['-c:a', 'mp2'],
  avi: ['-c:a', 'mp3'],
}

const pool = createProcessPool(2)

/** Makes a clip with ffmpeg and returns its bytes. */
export async function makeClip(options: ClipOptions = {}): Promise<Buffer> {
  const { width = 64, height = 48, seconds = 1, fps = 25, format = 'mp4' } = options
  const dir = await mkdtemp(join(tmpdir(), 'tessera-clip-'))
  try {
    const file = join(dir, `clip.${format}`)
    const source = options.source ?? 'testsrc2'
    const args = ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi']
    const lavfi = `size=${width}x${height}:rate=${fps}:duration=${seconds}`
    args.push('-i', `${source}${source.includes('=') ? ':' : '='}${lavfi}`)
    const audio = options.audio === true && format !== 'gif'
    if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`)
    args.push(...(CODECS[format] ?? []))
    if (options.gop !== undefined) args.push('-g', String(options.gop))
    if (audio) args.push(...(AUDIO[format] ?? ['-c:a', 'aac']), '-shortest')
    args.push(file)
    await pool.run(videoBinaries().ffmpeg, args, { timeoutMs: 120_000, maxStdoutBytes: 1 << 20 })
    return await readFile(file)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
