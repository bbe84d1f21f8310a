// Test support shared by the media and server suites: bad videos made from good ones, and a
// reading of a result's properties with ffprobe (the same binary the service uses).
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { videoBinaries } from './video-binaries.ts'

const run = promisify(execFile)

/**
 * A Matroska file whose header claims `seconds` (its Segment Info Duration rewritten): the
 * "video of hours" that holds one second of frames.
 */
export function withClaimedDuration(mkv: Buffer, seconds: number): Buffer {
  const copy = Buffer.from(mkv)
  // The Duration element (ID 0x4489, a 4- or 8-byte float) inside the segment's Info element
  // (ID 0x1549A966): the first 0x44 0x89 of the file may be random bytes (the segment's UID).
  const info = copy.indexOf(Buffer.from([0x15, 0x49, 0xa9, 0x66]))
  if (info === -1) throw new Error('no Info element')
  let at = copy.indexOf(Buffer.from([0x44, 0x89]), info)
  while (at !== -1 && copy[at + 2] !== 0x84 && copy[at + 2] !== 0x88) {
    at = copy.indexOf(Buffer.from([0x44, 0x89]), at + 1)
  }
  if (at === -1) throw new Error('no Duration element')
  // In the segment's timecode scale: milliseconds, as ffmpeg writes it.
  if (copy[at + 2] === 0x84) copy.writeFloatBE(seconds * 1000, at + 3)
  else copy.writeDoubleBE(seconds * 1000, at + 3)
  return copy
}

/** An MP4 with a rotation in its metadata (as phones write them), its frames unchanged. */
export async function withRotation(mp4: Buffer, degrees: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-rotate-'))
  try {
    const input = join(dir, 'in.mp4')
    const output = join(dir, 'out.mp4')
    await writeFile(input, mp4)
    const args = ['-v', 'error', '-i', input, '-c', 'copy', '-metadata:s:v:0']
    await run(videoBinaries().ffmpeg, [...args, `rotate=${degrees}`, output])
    return await readFile(output)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** What ffprobe reads from a result. */
export interface ReadProperties {
  codec: string
  width: number
  height: number
  duration: number
  frames: number
  format: string
}

/** Reads a file's video properties with ffprobe, counting frames by decoding. */
export async function readProperties(data: Buffer): Promise<ReadProperties> {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-read-'))
  try {
    const file = join(dir, 'file')
    await writeFile(file, data)
    const args = ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-print_format', 'json']
    args.push(
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames:format=duration,format_name',
      file,
    )
    const { stdout } = await run(videoBinaries().ffprobe, args)
    const parsed = JSON.parse(stdout) as {
      streams: { codec_name: string; width: number; height: number; nb_read_frames: string }[]
      format: { duration?: string; format_name: string }
    }
    const stream = parsed.streams[0]
    if (stream === undefined) throw new Error('no video stream')
    return {
      codec: stream.codec_name,
      width: stream.width,
      height: stream.height,
      duration: Number(parsed.format.duration ?? 0),
      frames: Number(stream.nb_read_frames),
      format: parsed.format.format_name,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
