// Usage over time on the console's home (issue 24, item 4): requests, bytes delivered, renders,
// AI runs and credits per day for a date range, as SVG bar charts (no chart library) with the
// same numbers in a table for screen readers and anyone who prefers one.
import { formatBytes } from '@tessera/url'
import { useState } from 'react'
import type { UsageDay } from '../../lib/team-api.ts'
import { Field } from '../form-field.tsx'
import { useConsole } from './console-context.tsx'
import { ListState, useLoad } from './load-state.tsx'
import { useTeamApi } from './use-team-api.ts'
import './team.css'

type Metric = Exclude<keyof UsageDay, 'day'>

const METRICS: { key: Metric; title: string; format: (value: number) => string }[] = [
  { key: 'requests', title: 'Requests', format: (v) => v.toLocaleString('en-US') },
  { key: 'bytes', title: 'Bytes delivered', format: (v) => formatBytes(v) },
  { key: 'renders', title: 'Renders', format: (v) => v.toLocaleString('en-US') },
  { key: 'aiRuns', title: 'AI runs', format: (v) => v.toLocaleString('en-US') },
  { key: 'credits', title: 'Credits spent', format: (v) => v.toLocaleString('en-US') },
]

const RANGES = [7, 30, 90] as const

/** `YYYY-MM-DD` of a time, UTC. */
export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10)

/** The range ending today (UTC) that spans `days` days. */
export function rangeOf(days: number, now = Date.now()): { from: string; to: string } {
  return { from: dayOf(now - (days - 1) * 86_400_000), to: dayOf(now) }
}

const WIDTH = 300
const HEIGHT = 110
const TOP = 14
const BOTTOM = 16

/** One metric's bars, one a day; the highest day's value labels the scale. */
export function UsageChart({
  days,
  metric,
}: {
  days: readonly UsageDay[]
  metric: (typeof METRICS)[number]
}) {
  const values = days.map((day) => day[metric.key])
  const max = Math.max(0, ...values)
  const total = values.reduce((sum, value) => sum + value, 0)
  const slot = days.length === 0 ? WIDTH : WIDTH / days.length
  const bar = Math.max(1, slot * 0.7)
  const plot = HEIGHT - TOP - BOTTOM
  const first = days[0]?.day ?? ''
  const last = days.at(-1)?.day ?? ''
  return (
    <figure className="usage-chart card" data-testid={`usage-chart-${metric.key}`}>
      <h3>{metric.title}</h3>
      <p className="usage-total" data-testid={`usage-total-${metric.key}`}>
        {metric.format(total)} in all
      </p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${metric.title} per day from ${first} to ${last}: ${metric.format(total)} in all, at most ${metric.format(max)} a day`}
      >
        <line className="axis" x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        {days.map((day, index) => {
          const height = max === 0 ? 0 : (day[metric.key] / max) * plot
          return (
            <rect
              key={day.day}
              className="bar"
              x={index * slot + (slot - bar) / 2}
              y={HEIGHT - BOTTOM - height}
              width={bar}
              height={height}
            >
              <title>{`${day.day}: ${metric.format(day[metric.key])}`}</title>
            </rect>
          )
        })}
        <text className="label" x={0} y={10}>
          {metric.format(max)}
        </text>
        <text className="label" x={0} y={HEIGHT - 3}>
          {first}
        </text>
        <text className="label" x={WIDTH} y={HEIGHT - 3} textAnchor="end">
          {last}
        </text>
      </svg>
    </figure>
  )
}

/** The usage section of the home page: a range, five charts and their table. */
export function UsageCharts() {
  const team = useTeamApi()
  const { org } = useConsole()
  const [range, setRange] = useState(() => rangeOf(30))
  const [draft, setDraft] = useState(range)
  const usage = useLoad(
    () => team.usageDaily(range.from, range.to),
    `usage:${org._id}:${range.from}:${range.to}`,
  )
  const chosen = RANGES.find((days) => {
    const preset = rangeOf(days)
    return preset.from === range.from && preset.to === range.to
  })
  const apply = (next: { from: string; to: string }) => {
    setRange(next)
    setDraft(next)
  }
  return (
    <section className="card" aria-labelledby="home-usage" data-testid="usage-section">
      <h2 id="home-usage">Usage over time</h2>
      <form
        className="usage-range"
        onSubmit={(event) => {
          event.preventDefault()
          if (draft.from !== '' && draft.to !== '') apply(draft)
        }}
      >
        <fieldset className="row-actions usage-presets">
          <legend className="visually-hidden">Range</legend>
          {RANGES.map((days) => (
            <button
              key={days}
              type="button"
              className={`button is-small ${chosen === days ? 'is-primary' : 'is-secondary'}`}
              aria-pressed={chosen === days}
              onClick={() => apply(rangeOf(days))}
              data-testid={`usage-range-${days}`}
            >
              {days} days
            </button>
          ))}
        </fieldset>
        <Field
          id="usage-from"
          label="From"
          type="date"
          value={draft.from}
          max={draft.to}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          data-testid="usage-from"
        />
        <Field
          id="usage-to"
          label="To"
          type="date"
          value={draft.to}
          min={draft.from}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          data-testid="usage-to"
        />
        <button type="submit" className="button is-small is-secondary" data-testid="usage-apply">
          Show
        </button>
      </form>
      <ListState load={usage} label="usage">
        {(series) => (
          <>
            <div className="usage-charts">
              {METRICS.map((metric) => (
                <UsageChart key={metric.key} days={series.days} metric={metric} />
              ))}
            </div>
            <details className="usage-table">
              <summary>Show the numbers as a table</summary>
              <div className="table-scroll">
                <table className="data-table" data-testid="usage-table">
                  <caption className="visually-hidden">
                    Usage per day from {series.from} to {series.to} (UTC)
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Day</th>
                      {METRICS.map((metric) => (
                        <th key={metric.key} scope="col">
                          {metric.title}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {series.days.map((day) => (
                      <tr key={day.day} data-testid="usage-row">
                        <th scope="row">{day.day}</th>
                        {METRICS.map((metric) => (
                          <td key={metric.key}>{metric.format(day[metric.key])}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </>
        )}
      </ListState>
    </section>
  )
}
