// Real HEIC files made on the spot (for tests and examples; nothing in the registry writes one:
// sharp's libvips and libheif-js have no HEVC encoder). ffmpeg's libx265 (the binary shipped in
// @ffmpeg-installer/linux-x64) encodes one intra frame; this module wraps its NAL units in the
// HEIF boxes of ISO/IEC 23008-12 (ftyp, meta with hdlr/pitm/iinf/iloc/iprp, mdat).
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The ffmpeg binary shipped in the registry package. */
export function ffmpegPath(): string {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@ffmpeg-installer/linux-x64/package.json')), 'ffmpeg')
}

/** Raw pixels to encode: 8-bit RGB, rows packed. */
export interface HeicSource {
  data: Uint8Array
  width: number
  height: number
}

function encodeHevc(source: HeicSource): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath(),
      [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgb24'],
        ...['-s', `${source.width}x${source.height}`, '-i', 'pipe:0', '-frames:v', '1'],
        ...['-c:v', 'libx265', '-preset', 'ultrafast', '-crf', '8', '-pix_fmt', 'yuv420p'],
        ...['-x265-params', 'log-level=error:keyint=1', '-f', 'hevc', 'pipe:1'],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    )
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.stdin.on('error', () => undefined)
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new Error(`ffmpeg failed (${code}): ${Buffer.concat(err).toString()}`))
    })
    child.stdin.end(Buffer.from(source.data))
  })
}

// Annex B start codes split into NAL units.
function nalUnits(stream: Buffer): Buffer[] {
  const units: Buffer[] = []
  let start = -1
  for (let i = 0; i + 2 < stream.length; i++) {
    if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) {
      if (start >= 0) units.push(trimZeros(stream.subarray(start, i)))
      start = i + 3
      i += 2
    }
  }
  if (start >= 0) units.push(stream.subarray(start))
  return units.filter((unit) => unit.length > 0)
}

function trimZeros(unit: Buffer): Buffer {
  let end = unit.length
  while (end > 0 && unit[end - 1] === 0) end--
  return unit.subarray(0, end)
}

const nalType = (unit: Buffer) => ((unit[0] ?? 0) >> 1) & 0x3f

// The RBSP of a NAL unit: emulation-prevention bytes (00 00 03) removed.
function rbsp(unit: Buffer): Buffer {
  const out: number[] = []
  for (let i = 0; i < unit.length; i++) {
    if (i >= 2 && unit[i] === 3 && unit[i - 1] === 0 && unit[i - 2] === 0) continue
    out.push(unit[i] ?? 0)
  }
  return Buffer.from(out)
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts)
  const header = Buffer.alloc(8)
  header.writeUInt32BE(8 + body.length)
  header.write(type, 4, 'latin1')
  return Buffer.concat([header, body])
}

function fullBox(type: string, version: number, flags: number, ...parts: Buffer[]): Buffer {
  const head = Buffer.alloc(4)
  head.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff))
  return box(type, head, ...parts)
}

function u8(...values: number[]) {
  return Buffer.from(values)
}
function u16(value: number) {
  const b = Buffer.alloc(2)
  b.writeUInt16BE(value)
  return b
}
function u32(value: number) {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(value)
  return b
}

// The decoder configuration record (ISO/IEC 14496-15 §8.3.3) from the parameter sets.
function hvcC(vps: Buffer, sps: Buffer, pps: Buffer): Buffer {
  // After the 2-byte NAL header: one byte of ids, then profile_tier_level's first 12 bytes.
  const ptl = rbsp(sps).subarray(3, 15)
  const arrays = [vps, sps, pps].map((unit) =>
    Buffer.concat([u8(0x80 | nalType(unit)), u16(1), u16(unit.length), unit]),
  )
  return box(
    'hvcC',
    u8(1),
    ptl,
    u16(0xf000),
    u8(0xfc, 0xfd, 0xf8, 0xf8),
    u16(0),
    u8(0x0f, arrays.length),
    ...arrays,
  )
}

/**
 * A real HEIC image (HEVC main profile, 4:2:0) of the given RGB pixels. Width and height should
 * be even (4:2:0).
 */
export async function createTestHeic(source: HeicSource): Promise<Buffer> {
  const units = nalUnits(await encodeHevc(source))
  const find = (type: number) => units.find((unit) => nalType(unit) === type)
  const vps = find(32)
  const sps = find(33)
  const pps = find(34)
  if (vps === undefined || sps === undefined || pps === undefined) {
    throw new Error('ffmpeg gave no HEVC parameter sets')
  }
  // The coded picture: its slice NAL units (types 0–31), each prefixed by its length.
  const slices = units.filter((unit) => nalType(unit) < 32)
  const data = Buffer.concat(slices.flatMap((unit) => [u32(unit.length), unit]))
  const ftyp = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'))
  const meta = (offset: number) =>
    fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), u8(0)),
      fullBox('pitm', 0, 0, u16(1)),
      fullBox(
        'iinf',
        0,
        0,
        u16(1),
        fullBox('infe', 2, 0, u16(1), u16(0), Buffer.from('hvc1\0', 'latin1')),
      ),
      // offset_size 4, length_size 4, base_offset_size 0; one item with one extent.
      fullBox(
        'iloc',
        0,
        0,
        u8(0x44, 0x00),
        u16(1),
        u16(1),
        u16(0),
        u16(1),
        u32(offset),
        u32(data.length),
      ),
      box(
        'iprp',
        box(
          'ipco',
          hvcC(vps, sps, pps),
          fullBox('ispe', 0, 0, u32(source.width), u32(source.height)),
        ),
        fullBox('ipma', 0, 0, u32(1), u16(1), u8(2, 0x81, 0x02)),
      ),
    )
  // The extent's offset is where mdat's payload starts, after ftyp, meta and mdat's header.
  const offset = ftyp.length + meta(0).length + 8
  return Buffer.concat([ftyp, meta(offset), box('mdat', data)])
}
