// The static baseline of web.bench.ts, run as its own process: answers every GET with the bytes of
// one file, read once into memory, with the headers a page needs. It is the ceiling for serving a
// page on this machine (no routing, no rendering, no data), with the same client and the same
// `node:http` underneath as our server. Prints `http://127.0.0.1:PORT` when listening.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const file = process.argv[2]
if (file === undefined) throw new Error('usage: node web-static-peer.ts <file>')
const body = readFileSync(file)
const headers = {
  'content-type': 'text/html; charset=utf-8',
  'content-length': String(body.length),
  'cache-control': 'no-cache',
}
const server = createServer((_request, response) => {
  response.writeHead(200, headers)
  response.end(body)
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address === null || typeof address !== 'object') throw new Error('no address')
  console.log(`http://127.0.0.1:${address.port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
