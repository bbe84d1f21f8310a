// MediaRecorder writes a live stream: its Segment Info has no Duration, so players show no length
// until the end. `withDuration` inserts one (EBML id 0x4489, float64 in TimecodeScale units, ms
// here), for make-product-video.ts.

function readVint(bytes: Uint8Array, at: number): { length: number; value: number } {
  const first = bytes[at] ?? 0
  let length = 1
  while (length <= 8 && (first & (0x80 >> (length - 1))) === 0) length++
  let value = first & (0xff >> length)
  for (let i = 1; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0)
  return { length, value }
}

function sizeVint(value: number): Uint8Array {
  // Eight bytes always fits and keeps the arithmetic simple.
  const out = new Uint8Array(8)
  let rest = value
  for (let i = 7; i >= 1; i--) {
    out[i] = rest % 256
    rest = Math.floor(rest / 256)
  }
  out[0] = 0x01
  return out
}

export function withDuration(webm: Uint8Array, durationMs: number): Uint8Array {
  const INFO = [0x15, 0x49, 0xa9, 0x66]
  let at = -1
  for (let i = 0; i < Math.min(webm.length, 4096) - 4; i++) {
    if (INFO.every((byte, k) => webm[i + k] === byte)) {
      at = i
      break
    }
  }
  if (at < 0) throw new Error('No Segment Info in the recording')
  const size = readVint(webm, at + 4)
  const bodyStart = at + 4 + size.length
  const body = webm.subarray(bodyStart, bodyStart + size.value)
  const duration = new Uint8Array(11)
  duration.set([0x44, 0x89, 0x88])
  new DataView(duration.buffer).setFloat64(3, durationMs)
  const info = new Uint8Array(4 + 8 + body.length + duration.length)
  info.set(INFO)
  info.set(sizeVint(body.length + duration.length), 4)
  info.set(body, 12)
  info.set(duration, 12 + body.length)
  const out = new Uint8Array(at + info.length + (webm.length - bodyStart - size.value))
  out.set(webm.subarray(0, at))
  out.set(info, at)
  out.set(webm.subarray(bodyStart + size.value), at + info.length)
  return out
}
