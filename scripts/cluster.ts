// `npm run cluster`: Tessera the way it runs on several machines, on this one: CLUSTER_SIZE
// processes (default 3) on a private PostgreSQL and an S3-compatible server (s3rver), behind
// HAProxy on one port (CLUSTER_PORT, default 4200). Ctrl-C stops everything it started.
import { startCluster } from './cluster/cluster.ts'

function whole(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max}`)
    process.exit(1)
  }
  return value
}

const size = whole('CLUSTER_SIZE', 3, 1, 32)
const port = whole('CLUSTER_PORT', 4200, 1, 65535)
const database = process.env.CLUSTER_DATABASE_URL?.trim() || 'private'

console.log(`Starting ${size} Tessera processes behind HAProxy on port ${port}…`)
const cluster = await startCluster({
  size,
  port,
  database,
  supervise: true,
  keep: process.env.CLUSTER_KEEP === 'true',
  env: { LOG_LEVEL: process.env.LOG_LEVEL?.trim() || 'warn' },
  echo: (name, line) => console.log(`[${name}] ${line}`),
}).catch((error: unknown) => {
  console.error(
    error instanceof Error
      ? `${error.message}${error.cause ? `: ${String(error.cause)}` : ''}`
      : error,
  )
  process.exit(1)
})

console.log(`
Tessera cluster ready on ${cluster.url}
  processes  ${cluster.tessera.map((p) => `${p.name} ${p.url} (pid ${p.pid()})`).join('\n             ')}
  PostgreSQL ${cluster.databaseUrl}${cluster.postgres === undefined ? '' : ' (private server)'}
  S3         ${cluster.s3Endpoint} (s3rver, bucket tessera)
  logs       ${cluster.workDir}/logs
Ctrl-C stops everything.`)

let stopping = false
const stop = (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping the cluster…`)
  cluster.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('could not stop cleanly:', error)
      process.exit(1)
    },
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
