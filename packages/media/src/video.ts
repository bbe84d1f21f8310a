// Video work through ffmpeg and ffprobe child processes (video-process.ts): probing a file
// (limits and a decode check of its first frame and its last second, so a truncated file is
// refused at once), taking a still, and transcoding a planned chain (video-chain.ts). Each call
// works in a private temp directory (mode 0700) that is removed when it ends, however it ends.
// The settings and answer types are in video-settings.ts, the shared arguments in video-args.ts.

import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commonArgs, demuxer, INPUT_GUARD, readProbe } from './video-args.ts'
import { videoBinaries } from './video-binaries.ts'
import {
  type ChainOperation,
  type ChainSource,
  type PlanLimits,
  planVideo,
  VIDEO_CONTENT_TYPES,
  type VideoPlan,
} from './video-chain.ts'
import { VideoError } from './video-errors.ts'
import { createProcessPool } from './video-process.ts'
import {
  DEFAULT_VIDEO_SETTINGS,
  type VideoProbe,
  type VideoResult,
  type VideoSettings,
} from './video-settings.ts'

/** Creates the video service over the settings (unset ones from `DEFAULT_VIDEO_SETTINGS`). */
export function createVideo(given: Partial<VideoSettings> = {}) {
  const settings: VideoSettings = { ...DEFAULT_VIDEO_SETTINGS, ...given }
  const pool = createProcessPool(settings.concurrency)
  const limits: PlanLimits = { maxSeconds: settings.maxSeconds, maxPixels: settings.maxPixels }
  const probeTimeout = Math.min(settings.timeoutMs, 30_000)

  const tempRoot = settings.tempDir ?? tmpdir()

  /**
   * Removes temp directories left by a process that died mid-run (a crash, SIGKILL): those
   * older than any run can last (three ffmpeg runs at most per call, each within its time
   * limit, plus a margin), so none of a live process's is touched. Runs once at creation.
   */
  async function sweep(now = Date.now()): Promise<number> {
    const oldest = now - (3 * settings.timeoutMs + 60_000)
    let removed = 0
    const names = await readdir(tempRoot).catch(() => [] as string[])
    for (const name of names) {
      if (!name.startsWith('tessera-video-')) continue
      const path = join(tempRoot, name)
      const info = await stat(path).catch(() => undefined)
      if (info === undefined || info.mtimeMs > oldest) continue
      await rm(path, { recursive: true, force: true }).catch(() => undefined)
      removed++
    }
    return removed
  }
  if (settings.sweepOnStart !== false) void sweep()

  /** Runs `work` with `input` written to a fresh private directory, removed afterwards. */
  async function inTempDir<T>(input: Buffer, work: (dir: string, file: string) => Promise<T>) {
    const dir = await mkdtemp(join(tempRoot, 'tessera-video-'))
    try {
      const file = join(dir, 'input')
      await writeFile(file, input, { mode: 0o600 })
      return await work(dir, file)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  async function ffprobe(file: string, format?: string): Promise<VideoProbe> {
    const { ffprobe: binary } = videoBinaries()
    let text: string
    try {
      const args = ['-v', 'error', ...INPUT_GUARD, ...demuxer(format), '-print_format', 'json']
      args.push('-show_format', '-show_streams', file)
      const result = await pool.run(binary, args, {
        timeoutMs: probeTimeout,
        maxStdoutBytes: 4 << 20,
      })
      text = result.stdout.toString('utf8')
    } catch (error) {
      if (error instanceof VideoError && error.code === 'timeout') throw error
      throw new VideoError(
        'invalid_video',
        'The file is not a video this service reads (it may be truncated or corrupt)',
        { cause: error },
      )
    }
    return readProbe(text)
  }

  function checkLimits(probe: VideoProbe): void {
    if (probe.width * probe.height > settings.maxPixels) {
      throw new VideoError(
        'too_many_pixels',
        `The video's frames are ${probe.width}×${probe.height}, over the limit of ${settings.maxPixels} pixels (VIDEO_MAX_PIXELS)`,
      )
    }
    if (probe.duration > settings.maxSeconds) {
      throw new VideoError(
        'too_long',
        `The video lasts ${probe.duration.toFixed(1)} s, over the limit of ${settings.maxSeconds} s (VIDEO_MAX_SECONDS)`,
      )
    }
  }

  async function ffmpeg(args: string[], maxStdoutBytes = 1 << 20, timeoutMs = settings.timeoutMs) {
    const { ffmpeg: binary } = videoBinaries()
    return await pool.run(binary, [...commonArgs(settings.threads), ...args], {
      timeoutMs,
      maxStdoutBytes,
    })
  }

  // The first frame and the last second must decode: a file cut short fails here, not later.
  async function decodeCheck(file: string, format?: string): Promise<void> {
    const guard = ['-xerror', ...INPUT_GUARD, ...demuxer(format)]
    try {
      await ffmpeg(
        [...guard, '-i', file, '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-'],
        1 << 20,
        probeTimeout,
      )
      await ffmpeg(
        [...guard, '-sseof', '-1', '-i', file, '-map', '0:v:0', '-f', 'null', '-'],
        1 << 20,
        probeTimeout,
      )
    } catch (error) {
      if (error instanceof VideoError && error.code === 'timeout') throw error
      throw new VideoError(
        'invalid_video',
        'The video does not decode (it may be truncated or corrupt)',
        { cause: error },
      )
    }
  }

  /**
   * Reads a video's properties, checks them against the limits, and (with `verify`, as an upload
   * does) that its first frame and last second decode. With `format` (the sniffed format), only
   * that format's demuxer reads the bytes.
   *
   * @throws {VideoError} `invalid_video`, `too_long`, `too_many_pixels`, `timeout`.
   */
  async function probe(
    input: Buffer,
    how: { verify?: boolean; format?: string } = {},
  ): Promise<VideoProbe> {
    return await inTempDir(input, async (_dir, file) => {
      const found = await ffprobe(file, how.format)
      checkLimits(found)
      if (how.verify === true) await decodeCheck(file, how.format)
      return found
    })
  }

  /**
   * The frame at `at` seconds (the first by default) as a PNG, at the video's own size;
   * `format` is the stored format (its demuxer is the only one used). `known` is the frame size
   * probed at upload: given, no ffprobe runs first (a thumbnail is one process, not two).
   *
   * @throws {VideoError}
   */
  async function still(
    input: Buffer,
    at = 0,
    format?: string,
    known?: { width: number; height: number },
  ): Promise<{ data: Buffer; width: number; height: number }> {
    return await inTempDir(input, async (_dir, file) => {
      const found = known ?? (await ffprobe(file, format))
      if (found.width * found.height > settings.maxPixels) {
        throw new VideoError(
          'too_many_pixels',
          `The video's frames are ${found.width}×${found.height}, over the limit of ${settings.maxPixels} pixels (VIDEO_MAX_PIXELS)`,
        )
      }
      const seek = at > 0 ? ['-ss', at.toFixed(3)] : []
      const args = [...INPUT_GUARD, ...demuxer(format), ...seek, '-i', file]
      args.push('-map', '0:v:0', '-frames:v', '1')
      // Stored, not deflated: the engine decodes it at once, and a 1080p frame deflates slowly.
      args.push('-f', 'image2pipe', '-c:v', 'png', '-compression_level', '0', '-')
      const { stdout } = await ffmpeg(
        args,
        Math.max(1 << 20, found.width * found.height * 8),
      ).catch((error: unknown) => {
        if (error instanceof VideoError && error.code !== 'failed') throw error
        throw new VideoError('invalid_video', 'No frame could be read at that time', {
          cause: error,
        })
      })
      if (stdout.length === 0)
        throw new VideoError('invalid_video', `The video has no frame at ${at} s`)
      return { data: stdout, width: found.width, height: found.height }
    })
  }

  function encoderArgs(plan: VideoPlan, probe: VideoProbe, output: string): string[] {
    const filters = plan.filters.length === 0 ? [] : [plan.filters.join(',')]
    const q = plan.quality
    switch (plan.format) {
      case 'gif': {
        // One palette made for the clip, then used on it: far better than the fixed palette.
        const rate = probe.frameRate > 0 && probe.frameRate <= 25 ? [] : ['fps=15']
        const chain = [...filters, ...rate].join(',')
        const graph = `${chain === '' ? '' : `${chain},`}split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse`
        return ['-filter_complex', graph, '-an', '-f', 'gif', output]
      }
      case 'webm': {
        const crf = Math.round(Math.min(63, Math.max(4, 33 + (75 - q) / 3)))
        const video = [
          '-c:v',
          'libvpx-vp9',
          '-deadline',
          'realtime',
          '-cpu-used',
          '8',
          '-row-mt',
          '1',
        ]
        video.push('-b:v', '0', '-crf', String(crf), '-pix_fmt', 'yuv420p')
        const audio = probe.audioCodec === undefined ? ['-an'] : ['-c:a', 'libopus', '-b:a', '96k']
        return [
          ...(filters.length ? ['-vf', ...filters] : []),
          ...video,
          ...audio,
          '-f',
          'webm',
          output,
        ]
      }
      default: {
        const crf = Math.round(Math.min(51, Math.max(0, 23 + (75 - q) / 5)))
        const video = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(crf)]
        video.push('-pix_fmt', 'yuv420p', '-movflags', '+faststart')
        const audio = probe.audioCodec === undefined ? ['-an'] : ['-c:a', 'aac', '-b:a', '128k']
        return [
          ...(filters.length ? ['-vf', ...filters] : []),
          ...video,
          ...audio,
          '-f',
          'mp4',
          output,
        ]
      }
    }
  }

  /**
   * Runs a chain that answers a video (`planVideo` reads it; `format` is the stored format).
   *
   * @throws {VideoError}
   */
  async function transform(
    input: Buffer,
    operations: readonly ChainOperation[],
    how: { format: string; dpr?: number },
  ): Promise<VideoResult> {
    return await inTempDir(input, async (dir, file) => {
      const found = await ffprobe(file, how.format)
      const source: ChainSource = { ...found, format: how.format }
      if (found.width * found.height > settings.maxPixels) checkLimits(found)
      const plan = planVideo(operations, source, limits, how.dpr ?? 1)
      const output = join(dir, `output.${plan.format}`)
      const window = ['-ss', plan.start.toFixed(3), '-t', plan.duration.toFixed(3)]
      const args = [...INPUT_GUARD, ...demuxer(how.format), ...window, '-i', file, '-map', '0:v:0']
      if (found.audioCodec !== undefined && plan.format !== 'gif') args.push('-map', '0:a:0')
      args.push('-fs', String(settings.maxOutputBytes), ...encoderArgs(plan, found, output))
      await ffmpeg(args).catch((error: unknown) => {
        if (error instanceof VideoError && error.code !== 'failed') throw error
        throw new VideoError('failed', 'The video could not be transformed', { cause: error })
      })
      const size = (await stat(output)).size
      // -fs stops writing at the limit: a result that reached it is cut short.
      if (size >= settings.maxOutputBytes) {
        throw new VideoError(
          'output_too_large',
          `The result is over ${settings.maxOutputBytes} bytes (VIDEO_MAX_OUTPUT_BYTES): ask a smaller size or a shorter part`,
        )
      }
      const data = await readFile(output)
      const made = await ffprobe(output, plan.format)
      return {
        data,
        format: plan.format,
        contentType: VIDEO_CONTENT_TYPES[plan.format],
        width: made.width,
        height: made.height,
        duration: made.duration,
        steps: plan.steps,
      }
    })
  }

  /**
   * Checks a chain that answers a video against the limits, from the stored file's properties,
   * before any work (what delivery calls before queueing).
   *
   * @throws {VideoError} `invalid_operation`, `too_many_pixels`, `too_long`.
   */
  function plan(operations: readonly ChainOperation[], source: ChainSource, dpr = 1): VideoPlan {
    if (source.width * source.height > settings.maxPixels) {
      checkLimits({ ...source, container: '', codec: '', frameRate: 0, frames: 0 })
    }
    return planVideo(operations, source, limits, dpr)
  }

  return {
    settings: settings as Readonly<VideoSettings>,
    probe,
    still,
    transform,
    plan,
    sweep,
    /** Kills the ffmpeg processes running now and refuses new work (for shutdown). */
    close: () => pool.close(),
    /** ffmpeg and ffprobe processes running and waiting now. */
    get load() {
      return { active: pool.active, waiting: pool.waiting }
    },
  }
}

export type Video = ReturnType<typeof createVideo>
