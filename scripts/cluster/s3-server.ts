// An S3-compatible server (s3rver) as its own process, for `npm run cluster` and its tests:
// `node s3-server.ts <port> <folder> <bucket>`. It stops on SIGTERM/SIGINT.
import S3rver from 's3rver'

const [port, directory, bucket] = process.argv.slice(2)
if (port === undefined || directory === undefined || bucket === undefined) {
  console.error('usage: node s3-server.ts <port> <folder> <bucket>')
  process.exit(2)
}
const server = new S3rver({
  port: Number(port),
  address: '127.0.0.1',
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
})
await server.run()
console.log(`s3rver listening on http://127.0.0.1:${port} (bucket ${bucket})`)
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
