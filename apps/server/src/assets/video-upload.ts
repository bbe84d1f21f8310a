// Videos at upload (issue 23): probed with ffprobe and decoded at their first frame and last
// second before they are kept, so a truncated, corrupt, disguised, hours-long or huge video is a
// clear 4xx and nothing is stored; their properties go into the file row and the file JSON.
import type { AppContext } from '../context.ts'
import type { StoredFile, VideoProperties } from '../db/index.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'

/** What an uploaded video is: its frame size and its properties. */
export interface ProbedVideo {
  width: number
  height: number
  video: VideoProperties
}

/**
 * Probes an uploaded video (read as its sniffed `format` only) against `VIDEO_MAX_SECONDS` and
 * `VIDEO_MAX_PIXELS`.
 *
 * @throws {HttpError} 422 `invalid_video`, `video_too_long`, `video_too_large`; 503 `timeout`.
 */
export async function probeUploadedVideo(
  app: Pick<AppContext, 'video'>,
  data: Buffer,
  format: string,
): Promise<ProbedVideo> {
  try {
    const found = await app.video.probe(data, { verify: true, format })
    return {
      width: found.width,
      height: found.height,
      video: {
        duration: found.duration,
        codec: found.codec,
        frameRate: found.frameRate,
        frames: found.frames,
        ...(found.audioCodec === undefined ? {} : { audioCodec: found.audioCodec }),
      },
    }
  } catch (error) {
    throw engineErrorToHttp(error)
  }
}

/**
 * The video fields of a file's JSON: `duration` (seconds) and `codec` beside `size`, and every
 * property in `video`; none for other files.
 */
export function videoFields(file: Pick<StoredFile, 'video'>) {
  if (file.video === null || file.video === undefined) return {}
  return { duration: file.video.duration, codec: file.video.codec, video: file.video }
}
