// Benchmarks video delivery (issue 23) against ffmpeg run directly on the same file with the
// same arguments, in the same run: (1) a thumbnail of a frame of a 1080p H.264 clip, warm (the
// process has served one before; every frame asked is new, so nothing comes from the cache),
// target ≤ 1 s; (2) a 720p 10 s clip resized to 480p H.264 through the job path (202 until
// stored, asked again every 100 ms), target ≤ 1× real time. Clips are made with ffmpeg's lavfi
// test source (testsrc2, keyframe every 2 s). Run with `npm run bench:video` (bench/).
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { loadConfig, startServer } from '@tessera/server'
import { makeClip, videoBinaries } from '../packages/media/src/index.ts'
import { printTable } from './table.ts'

const run = promisify(execFile)
const ROUNDS = Number(process.env.VIDEO_BENCH_ROUNDS ?? 5)
const load = () => loadavg()[0]?.toFixed(1) ?? '?'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await work()
  return (performance.now() - start) / 1000
}

console.log(`# video bench — load at start ${load()}`)
const dir = await mkdtemp(join(tmpdir(), 'tessera-bench-video-'))
const clip1080 = await makeClip({ width: 1920, height: 1080, seconds: 10, fps: 25, gop: 50 })
const clip720 = await makeClip({ width: 1280, height: 720, seconds: 10, fps: 25, gop: 50 })
const file1080 = join(dir, '1080.mp4')
const file720 = join(dir, '720.mp4')
await writeFile(file1080, clip1080)
await writeFile(file720, clip720)

const config = {
  ...loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    RENDER_LIMIT_PER_MINUTE: '0',
    JOB_POLL_MS: '50',
  }),
  port: 0,
}
const server = await startServer(config, { databaseDir: 'memory://' })
try {
  const { repo, storage, video } = server.services.context
  const organisation = await repo.createOrganisation({ cloudName: 'bench', name: 'Bench' })
  await repo.grantCredits(organisation.id, 1000, 'bench', 'bench')
  // Unsigned URLs, as ffmpeg direct needs none (strict transformations would ask a signature).
  await repo.updateOrganisationSettings(organisation.id, { strictTransformations: false })
  for (const [path, data] of [
    ['1080.mp4', clip1080],
    ['720.mp4', clip720],
  ] as const) {
    const probe = await video.probe(data)
    const hash = createHash('sha256').update(data).digest('hex')
    const storageKey = `orgs/${organisation.id}/originals/bench-${path}`
    await storage.put(storageKey, data, { contentType: 'video/mp4' })
    await repo.upsertFile(organisation.id, {
      path,
      name: path,
      size: data.length,
      format: 'mp4',
      contentType: 'video/mp4',
      width: probe.width,
      height: probe.height,
      hash,
      storageKey,
      video: {
        duration: probe.duration,
        codec: probe.codec,
        frameRate: probe.frameRate,
        frames: probe.frames,
      },
    })
  }
  const base = `${server.url}/v2/bench`
  async function fetchDone(path: string): Promise<Buffer> {
    for (;;) {
      const response = await fetch(`${base}/${path}`)
      const body = Buffer.from(await response.arrayBuffer())
      if (response.status === 200) return body
      if (response.status !== 202) throw new Error(`${path}: ${response.status} ${body}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const ffmpeg = (args: string[]) =>
    run(videoBinaries().ffmpeg, ['-hide_banner', '-v', 'error', '-threads', '2', ...args], {
      maxBuffer: 64 << 20,
      encoding: 'buffer',
    })

  // (1) Thumbnails: warm-up, then a new frame each round (t = 1.1, 2.2, … s).
  await fetchDone('vid.frame(t:0.5)~t.resize(w:320)/1080.mp4')
  await ffmpeg([
    '-ss',
    '0.5',
    '-i',
    file1080,
    '-frames:v',
    '1',
    '-vf',
    'scale=320:-2',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-',
  ])
  const ours: number[] = []
  const direct: number[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const t = ((round * 1.1) % 9.5).toFixed(2)
    ours.push(await timed(() => fetchDone(`vid.frame(t:${t})~t.resize(w:320)/1080.mp4`)))
    direct.push(
      await timed(() =>
        ffmpeg([
          '-ss',
          t,
          '-i',
          file1080,
          '-frames:v',
          '1',
          '-vf',
          'scale=320:-2',
          '-f',
          'image2pipe',
          '-c:v',
          'mjpeg',
          '-',
        ]),
      ),
    )
  }
  // (2) 720p 10 s → 480p H.264: a new chain each round (the quality changes the cache key).
  const oursResize: number[] = []
  const directResize: number[] = []
  for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
    const q = [75, 70, 60][round] ?? 75
    oursResize.push(
      await timed(() => fetchDone(`t.resize(h:480)~t.toFormat(f:mp4,q:${q})/720.mp4`)),
    )
    const crf = String(Math.round(23 + (75 - q) / 5))
    directResize.push(
      await timed(() =>
        ffmpeg([
          '-i',
          file720,
          '-map',
          '0:v:0',
          '-vf',
          'scale=854:480',
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          crf,
          '-pix_fmt',
          'yuv420p',
          '-movflags',
          '+faststart',
          '-y',
          join(dir, `direct-${q}.mp4`),
        ]),
      ),
    )
  }
  const s = (value: number) => `${value.toFixed(2)} s`
  printTable(
    ['case', 'Tessera (median)', 'ffmpeg direct (median)', 'Tessera / direct', 'target'],
    [
      [
        `1080p H.264 frame → 320 px JPEG (${ROUNDS} new frames)`,
        s(median(ours)),
        s(median(direct)),
        `${(median(ours) / median(direct)).toFixed(2)}×`,
        `≤ 1 s: ${median(ours) <= 1 ? 'met' : 'not met'}`,
      ],
      [
        `720p 10 s → 480p H.264 (${oursResize.length} chains, job path)`,
        `${s(median(oursResize))} (${(median(oursResize) / 10).toFixed(2)}× real time)`,
        `${s(median(directResize))} (${(median(directResize) / 10).toFixed(2)}× real time)`,
        `${(median(oursResize) / median(directResize)).toFixed(2)}×`,
        `≤ 1× real time: ${median(oursResize) <= 10 ? 'met' : 'not met'}`,
      ],
    ],
    [false, true, true, true, false],
  )
  console.log(
    `\nthumbnail rounds (s): ours ${ours.map((v) => v.toFixed(2)).join(', ')}; direct ${direct.map((v) => v.toFixed(2)).join(', ')}`,
  )
  console.log(
    `resize rounds (s): ours ${oursResize.map((v) => v.toFixed(2)).join(', ')}; direct ${directResize.map((v) => v.toFixed(2)).join(', ')}`,
  )
  console.log(`load at end ${load()}`)
} finally {
  await server.close()
  await rm(dir, { recursive: true, force: true })
}
