// The delivery benchmark's output (delivery.bench.ts): the table of rows, the ratios against the
// targets, and rows pooled over turns.
import { availableParallelism } from 'node:os'
import type { Row } from './delivery-measure.ts'
import {
  CONCURRENCY,
  OTHER_LOAD_LIMIT,
  SECONDS,
  TARGETS,
  TURNS,
  VARIANTS,
  type VariantKey,
  WARMUP_SECONDS,
  WORKLOADS,
} from './delivery-settings.ts'
import { printTable } from './table.ts'

// ---------------------------------------------------------------------------------------------
// Output.

export const fmtRps = (n: number) =>
  n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 100 ? 0 : 1)
export const fmtMs = (n: number) => n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 2)
const fmtRatio = (n: number) => `${n.toFixed(2)}×`
const met = (ok: boolean) => (ok ? 'MET' : 'NOT MET')

export function report(rows: readonly Row[], turnRatios: ReadonlyMap<string, number[]>): void {
  console.log(
    `\nResults (${CONCURRENCY} requests in flight for every variant; ${SECONDS} s measured after ` +
      `${WARMUP_SECONDS} s warm-up; latency in ms; client and servers share the same ` +
      `${availableParallelism()} cores` +
      (TURNS > 1 ? `; warm and bare: means of ${TURNS} turns each, in turns` : '') +
      ')\n',
  )
  printTable(
    [
      'workload',
      'variant',
      'req/s',
      'p50 ms',
      'p99 ms',
      'requests',
      'client CPU',
      'main thread CPU/answer',
      'other load',
    ],
    rows.map((row) => [
      row.workload.id,
      VARIANTS[row.variant],
      fmtRps(row.rps),
      fmtMs(row.p50),
      fmtMs(row.p99),
      row.count.toLocaleString('en-US'),
      row.clientCpu === undefined ? '—' : `${Math.round(row.clientCpu * 100)}%`,
      row.mainCpuMs === undefined ? '—' : `${(row.mainCpuMs * 1000).toFixed(0)} µs`,
      row.otherLoad === undefined ? '?' : row.otherLoad.toFixed(2),
    ]),
    [false, false, true, true, true, true, true, true, true],
  )
  console.log(
    '\nclient CPU: CPU time of the load generator thread over the run, in % of one core (taken ' +
      'from the same cores as the servers). main thread CPU/answer: CPU time of the thread the ' +
      'HTTP servers run on, per answer (warm-up included). other load: cores used by other ' +
      `processes of the machine meanwhile; above ${OTHER_LOAD_LIMIT.toFixed(2)} the row is ` +
      'disturbed.',
  )
  const disturbed = rows.filter((row) => (row.otherLoad ?? 0) > OTHER_LOAD_LIMIT)
  if (disturbed.length > 0) {
    console.log(
      `WARNING: other processes used CPU during ${disturbed.length} run(s) ` +
        `(${disturbed.map((row) => `${row.workload.id} ${row.variant}`).join(', ')}); ` +
        'their figures are low. Run again on a quiet machine.',
    )
  }
  const ratioRows: string[][] = []
  const verdicts: string[] = []
  for (const workload of WORKLOADS) {
    const find = (variant: VariantKey) =>
      rows.find((r) => r.workload === workload && r.variant === variant)
    // A verdict over a run that other processes disturbed says so: its figures are not this
    // machine's capacity.
    const caveat = (...compared: Row[]) =>
      compared.some((row) => (row.otherLoad ?? 0) > OTHER_LOAD_LIMIT)
        ? ' — UNRELIABLE: other processes used CPU during a run compared here'
        : ''
    const ratio = (a: Row | undefined, b: Row | undefined) =>
      a === undefined || b === undefined ? undefined : a.rps / b.rps
    const fmt = (value: number | undefined) => (value === undefined ? '—' : fmtRatio(value))
    const sharpRow = find('sharp')
    const ipxRow = find('ipx')
    const cold = find('oursCold')
    const warm = find('oursWarm')
    const bareRow = find('bare')
    const vsSharp = ratio(cold, sharpRow)
    const vsIpx = ratio(cold, ipxRow)
    const vsIpxDefault = ratio(cold, find('ipxDefault'))
    const vsBare = ratio(warm, bareRow)
    // Bare's CPU per answer over ours: how much of a bare server's speed ours would reach if the
    // main thread were the only limit.
    const cpuVsBare =
      warm?.mainCpuMs === undefined || bareRow?.mainCpuMs === undefined
        ? undefined
        : bareRow.mainCpuMs / warm.mainCpuMs
    ratioRows.push([
      workload.id,
      fmt(ratio(find('engine'), sharpRow)),
      fmt(vsSharp),
      fmt(vsIpx),
      fmt(vsIpxDefault),
      fmt(vsBare),
      fmt(cpuVsBare),
    ])
    if (cold !== undefined && sharpRow !== undefined && vsSharp !== undefined) {
      verdicts.push(
        `${workload.id}: ours cold ≥ ${TARGETS.coldVsSharp}× direct sharp: ` +
          `${met(vsSharp >= TARGETS.coldVsSharp)} (${fmtRatio(vsSharp)})${caveat(cold, sharpRow)}`,
      )
    }
    if (cold !== undefined && ipxRow !== undefined && vsIpx !== undefined) {
      verdicts.push(
        `${workload.id}: ours cold ≥ ${TARGETS.coldVsIpx}× ipx: ${met(vsIpx >= TARGETS.coldVsIpx)} ` +
          `(${fmtRatio(vsIpx)} against ipx with the same baseline JPEG output; ` +
          `${fmt(vsIpxDefault)} against ipx's progressive default)${caveat(cold, ipxRow)}`,
      )
    }
    if (warm !== undefined) {
      const warmMet = warm.rps >= TARGETS.warmRps && warm.p99 < TARGETS.warmP99Ms
      verdicts.push(
        `${workload.id}: ours warm ≥ ${TARGETS.warmRps.toLocaleString('en-US')} req/s with p99 < ` +
          `${TARGETS.warmP99Ms} ms: ${met(warmMet)} (${fmtRps(warm.rps)} req/s, ` +
          `p99 ${fmtMs(warm.p99)} ms)${caveat(warm)}`,
      )
    }
    if (warm !== undefined && bareRow !== undefined && vsBare !== undefined) {
      const turns = turnRatios.get(workload.id) ?? []
      verdicts.push(
        `${workload.id}: ours warm ≥ ${TARGETS.warmVsBare}× a bare node:http server sending the ` +
          `same bytes: ${met(vsBare >= TARGETS.warmVsBare)} (${fmtRatio(vsBare)}: ` +
          `${fmtRps(warm.rps)} against ${fmtRps(bareRow.rps)} req/s` +
          (turns.length > 1 ? `; per turn ${turns.map(fmtRatio).join(', ')}` : '') +
          (cpuVsBare === undefined
            ? ''
            : `; main-thread CPU per answer: bare / ours ${fmtRatio(cpuVsBare)}`) +
          `)${caveat(warm, bareRow)}`,
      )
    }
  }
  console.log('\nRatios of throughput\n')
  printTable(
    [
      'workload',
      'engine / direct sharp',
      'ours cold / direct sharp',
      'ours cold / ipx',
      'ours cold / ipx default',
      'ours warm / bare',
      'bare / ours warm, CPU per answer',
    ],
    ratioRows,
    [false, true, true, true, true, true, true],
  )
  console.log('\nTargets')
  for (const verdict of verdicts) console.log(`  ${verdict}`)
}

/** The turns of one variant as one row: means, and the most disturbed turn's other load. */
export function pooled(turns: readonly Row[]): Row {
  const first = turns[0]
  if (first === undefined) throw new Error('no turns')
  const mean = (pick: (row: Row) => number | undefined) => {
    const values = turns.map(pick).filter((value): value is number => value !== undefined)
    return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length
  }
  const row: Row = {
    workload: first.workload,
    variant: first.variant,
    rps: mean((r) => r.rps) as number,
    p50: mean((r) => r.p50) as number,
    p99: mean((r) => r.p99) as number,
    count: turns.reduce((sum, r) => sum + r.count, 0),
    clientCpu: mean((r) => r.clientCpu),
    otherLoad: turns.some((r) => r.otherLoad === undefined)
      ? undefined
      : Math.max(...turns.map((r) => r.otherLoad as number)),
  }
  const cpu = mean((r) => r.mainCpuMs)
  if (cpu !== undefined) row.mainCpuMs = cpu
  return row
}
