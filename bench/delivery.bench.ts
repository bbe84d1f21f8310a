// Delivery benchmark: our delivery endpoint over HTTP, cold (every request renders) and warm
// (every request is a derived-image cache hit), against sharp called directly in-process (the
// limit) and against ipx serving the same file over HTTP, in one run, at the same concurrency, on
// two workloads over a 2725 × 2225 JPEG. Run with `npm run bench:delivery -w @tessera/bench`
// (or `npm run bench`, which runs the URL benchmark first). BENCH_SECONDS sets the measured
// seconds of each run (default 10, 1–60); each run has a 3 s warm-up first. BENCH_ONLY=warm runs
// only the warm variant and its bare peer, BENCH_TURNS times in turns (default 3 then, else 1),
// so a busy machine's drift falls on both alike; BENCH_COLD_TURNS does the same for ours cold and
// ipx (default 1). Warm and bare rows also give the CPU time of the server's main thread per
// answer, which other processes' load does not inflate.
//
// Everything runs on this machine: the servers in this process, the load generator (autocannon)
// in a worker thread of it. Client and servers therefore share the same CPUs.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { ID_MARK } from './delivery-client.ts'
import {
  directCall,
  engineCall,
  type Measured,
  measureHttp,
  measureInProcess,
  newColour,
  type Row,
  sleep,
  toRow,
  withOtherLoad,
} from './delivery-measure.ts'
import { fmtMs, fmtRps, pooled, report } from './delivery-report.ts'
import {
  cacheCounts,
  check,
  closeServer,
  makeSource,
  sample,
  startBarePeer,
  startIpx,
  startOurs,
  versionOf,
} from './delivery-servers.ts'
import {
  COLD_TURNS,
  CONCURRENCY,
  deliveryPath,
  FILE_PATH,
  ipxSharp,
  ONLY_WARM,
  SOURCE_HEIGHT,
  SOURCE_WIDTH,
  sharp,
  TURNS,
  VARIANTS,
  type VariantKey,
  WORKLOADS,
} from './delivery-settings.ts'
import { printTable } from './table.ts'

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `Delivery benchmark — Node ${process.version}, ${availableParallelism()} CPUs (${cpu}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB`,
  )
  console.log(
    `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}, concurrency ${sharp.concurrency()}) ` +
      `for ours and direct; ipx ${versionOf('ipx')} with its own sharp ${ipxSharp.versions.sharp} ` +
      `(libvips ${ipxSharp.versions.vips}, concurrency ${ipxSharp.concurrency()}); ` +
      `autocannon ${versionOf('autocannon')}`,
  )
  console.log(
    `Load: ${CONCURRENCY} connections (HTTP) or ${CONCURRENCY} concurrent calls (in-process); ` +
      'the load generator runs in a worker thread of this process, so it shares the CPUs with the ' +
      'servers.',
  )

  const root = await mkdtemp(join(tmpdir(), 'tessera-delivery-bench-'))
  const servers: Array<() => Promise<void>> = []
  try {
    const source = await makeSource()
    const ipxRoot = join(root, 'ipx')
    await mkdir(join(ipxRoot, dirname(FILE_PATH)), { recursive: true })
    await writeFile(join(ipxRoot, FILE_PATH), source)
    console.log(
      `Source: ${SOURCE_WIDTH}×${SOURCE_HEIGHT} JPEG q90, ${(source.length / 1024).toFixed(0)} KiB ` +
        '(hubble_deep_field.jpg enlarged)\n',
    )

    const ours = await startOurs(join(root, 'data'), source)
    servers.push(() => ours.close())
    const ipx = await startIpx(ipxRoot, true)
    servers.push(() => closeServer(ipx.server))
    const ipxDefault = await startIpx(ipxRoot, false)
    servers.push(() => closeServer(ipxDefault.server))

    // Sanity: every variant answers a 720×588 JPEG; sizes show the outputs are alike.
    const outputs: string[][] = []
    for (const workload of WORKLOADS) {
      const direct = await directCall(workload, source)
      const viaEngine = await engineCall(workload, ours.services.context.engine, source)
      const cold = deliveryPath(workload.pattern)
      const checks: Array<[VariantKey, { bytes: number; progressive: boolean }]> = [
        ['sharp', await check('direct sharp', 200, 'image/jpeg', direct)],
        ['engine', await check('engine', 200, 'image/jpeg', viaEngine)],
        ['oursCold', await sample(ours.url + cold.replace(ID_MARK, newColour()))],
        ['oursWarm', await sample(ours.url + deliveryPath(workload.warmPattern))],
        ['ipx', await sample(ipx.origin + workload.ipx.replace(ID_MARK, newColour()))],
        [
          'ipxDefault',
          await sample(ipxDefault.origin + workload.ipx.replace(ID_MARK, newColour())),
        ],
      ]
      for (const [variant, output] of checks) {
        outputs.push([
          workload.id,
          VARIANTS[variant],
          output.bytes.toLocaleString('en-US'),
          output.progressive ? 'progressive' : 'baseline',
        ])
      }
    }
    console.log('Outputs (one request each; all 720×588 JPEG)\n')
    printTable(['workload', 'variant', 'bytes', 'JPEG'], outputs, [false, false, true, false])
    console.log(`\nURLs (${ID_MARK} = a new 6-hex-digit colour per request)`)
    for (const workload of WORKLOADS) {
      console.log(`  ${workload.id}: ${workload.description}`)
      console.log(`     ours cold  ${deliveryPath(workload.pattern)}`)
      console.log(`     ours warm  ${deliveryPath(workload.warmPattern)}`)
      console.log(`     ipx        ${workload.ipx}`)
    }
    console.log('')

    const rows: Row[] = []
    const turnRatios = new Map<string, number[]>()
    for (const workload of WORKLOADS) {
      /** Measures a variant; with `answered`, also the main thread's CPU per answer. */
      const step = async (
        variant: VariantKey,
        run: () => Promise<Measured>,
        answered?: () => Promise<number> | number,
      ): Promise<Row> => {
        process.stdout.write(`  ${workload.id} ${VARIANTS[variant]} … `)
        const answersBefore = answered === undefined ? 0 : await answered()
        const cpu = process.threadCpuUsage()
        const { value, other } = await withOtherLoad(run)
        const used = process.threadCpuUsage(cpu)
        const row = toRow(workload, variant, value, other)
        const answers = answered === undefined ? 0 : (await answered()) - answersBefore
        if (answers > 0) row.mainCpuMs = (used.user + used.system) / 1000 / answers
        console.log(
          `${fmtRps(row.rps)} req/s, p50 ${fmtMs(row.p50)} ms, p99 ${fmtMs(row.p99)} ms` +
            (row.mainCpuMs === undefined
              ? ''
              : `, main thread ${(row.mainCpuMs * 1000).toFixed(0)} µs CPU/answer`) +
            (other === undefined ? '' : `, other load ${other.toFixed(2)} cores`),
        )
        await sleep(500)
        return row
      }
      if (!ONLY_WARM) {
        const engine = ours.services.context.engine
        rows.push(await step('sharp', () => measureInProcess(() => directCall(workload, source))))
        rows.push(
          await step('engine', () => measureInProcess(() => engineCall(workload, engine, source))),
        )

        // Ours cold and ipx in turns (BENCH_COLD_TURNS), so drift of the machine falls on both.
        const coldTurns: Row[] = []
        const ipxTurns: Row[] = []
        const ipxDefaultTurns: Row[] = []
        for (let turn = 0; turn < COLD_TURNS; turn++) {
          const before = await cacheCounts(ours)
          const cold = await step('oursCold', () =>
            measureHttp(ours.url, deliveryPath(workload.pattern)),
          )
          const after = await cacheCounts(ours)
          if (after.hit !== before.hit || after.miss - before.miss < cold.count) {
            throw new Error(`cold run was not all misses: ${JSON.stringify({ before, after })}`)
          }
          console.log(`    (${after.miss - before.miss} cache misses, 0 hits, warm-up included)`)
          coldTurns.push(cold)
          ipxTurns.push(await step('ipx', () => measureHttp(ipx.origin, workload.ipx)))
          ipxDefaultTurns.push(
            await step('ipxDefault', () => measureHttp(ipxDefault.origin, workload.ipx)),
          )
        }
        rows.push(pooled(coldTurns), pooled(ipxTurns), pooled(ipxDefaultTurns))
      }

      // Warm and bare in turns: drift of the machine's load falls on both alike.
      const warmPath = deliveryPath(workload.warmPattern)
      const bare = await startBarePeer(ours.url + warmPath)
      const warmTurns: Row[] = []
      const bareTurns: Row[] = []
      for (let turn = 0; turn < TURNS; turn++) {
        const before = await cacheCounts(ours)
        const warm = await step(
          'oursWarm',
          () => measureHttp(ours.url, warmPath),
          async () => (await cacheCounts(ours)).hit,
        )
        const after = await cacheCounts(ours)
        if (after.miss !== before.miss) {
          throw new Error(`warm run had misses: ${JSON.stringify({ before, after })}`)
        }
        console.log(`    (${after.hit - before.hit} cache hits, 0 misses, warm-up included)`)
        const peer = await step(
          'bare',
          () => measureHttp(bare.origin, warmPath),
          () => bare.answered(),
        )
        warmTurns.push(warm)
        bareTurns.push(peer)
      }
      await closeServer(bare.server)
      turnRatios.set(
        workload.id,
        warmTurns.map((warm, turn) => warm.rps / (bareTurns[turn] as Row).rps),
      )
      rows.push(pooled(warmTurns), pooled(bareTurns))
    }
    report(rows, turnRatios)
  } finally {
    for (const close of servers.reverse()) await close()
    await rm(root, { recursive: true, force: true })
  }
}

await main()
