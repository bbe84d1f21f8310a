// Test support for the upload suites (upload-direct.test.ts, upload-remote.test.ts): a server with
// a 512 KiB upload limit and a token of the demo organisation, a remote host on loopback (allowed
// by address; localhost stays blocked) whose answers lie about their type or redirect to private
// addresses, forms as a browser sends them, and a decompression bomb.
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { beforeAll } from 'vitest'
import { useLoopbackHost } from '../test-loopback.ts'
import type { TestDatabaseKind } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'

export const ASSETS = '/service/panel/assets/v1.0'
export const MAX_BYTES = 512 * 1024

export async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer()
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A valid PNG of width × height grey pixels whose rows compress to almost nothing. */
export function decompressionBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.writeUInt8(8, 8) // bit depth
  header.writeUInt8(0, 9) // greyscale
  // One filter byte plus `width` zero bytes per row, deflated as a stream of zeros.
  const rows = deflateSync(Buffer.alloc((width + 1) * Math.min(height, 2000)))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export function form(
  file: Blob | undefined,
  fields: Record<string, string> = {},
  fileName = 'photo.png',
) {
  const body = new FormData()
  for (const [key, value] of Object.entries(fields)) body.set(key, value)
  if (file !== undefined) body.set('file', file, fileName)
  return body
}

/** Starts the remote host and a server before the suite's tests; stops them after. */
export function useUploadSuite(kind: TestDatabaseKind) {
  let image: Buffer
  let bomb: Buffer

  let token: string
  const upload = (body: FormData | string, headers: Record<string, string> = {}) =>
    fetch(`${suite.server.url}${ASSETS}/upload/direct`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, ...headers },
    })

  beforeAll(async () => {
    bomb = decompressionBomb(20000, 20000)
    image = await png(40, 30)
  }, 60_000)
  const source = useLoopbackHost((req, res) => {
    if (req.url === '/image.png') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(image)
    } else if (req.url === '/to-private') {
      res.writeHead(302, { location: 'http://10.0.0.7/secret.png' })
      res.end()
    } else if (req.url === '/to-loopback') {
      res.writeHead(302, { location: `http://localhost:${source.port}/image.png` })
      res.end()
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end('<html><body>not an image</body></html>')
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  // The test source is on loopback, so it is allow-listed by address; localhost stays blocked.
  const suite = useTestServer(kind, {
    UPLOAD_MAX_BYTES: String(MAX_BYTES),
    REMOTE_ALLOW_HOSTS: '127.0.0.1',
  })
  beforeAll(async () => {
    token = await suite.server.createToken()
  })

  return {
    /** The remote host on loopback: `/image.png`, `/to-private`, `/to-loopback`, `/page.html`. */
    source,
    get server() {
      return suite.server
    },
    get bomb() {
      return bomb
    },
    get token() {
      return token
    },
    upload,
  }
}
