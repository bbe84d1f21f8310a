import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** The Prometheus metrics of one server process. */
export interface Metrics {
  registry: Registry
  requests: Counter<'method' | 'route' | 'status'>
  latency: Histogram<'route'>
  cache: Counter<'result'>
  jobs: Counter<'kind' | 'outcome'>
  jobsQueued: Gauge
  /** Bytes of all derived images in the index (every process's), and the budget. */
  derivedBytes: Gauge
  derivedBudgetBytes: Gauge
  derivedEvictions: Counter
  /** Derived images answered but not stored (larger than `DERIVED_STORE_MAX_BYTES`). */
  derivedNotStored: Counter
  /** Cache misses refused with 429 by the per-address render limit. */
  renderLimited: Counter
}

/** Creates a registry with request, latency, cache and job metrics plus Node's defaults. */
export function createMetrics(): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'tessera_' })
  return {
    registry,
    requests: new Counter({
      name: 'tessera_http_requests_total',
      help: 'HTTP requests answered',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    cache: new Counter({
      name: 'tessera_delivery_cache_total',
      help: 'Delivery requests by cache result (hit, miss, not_modified)',
      labelNames: ['result'],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'tessera_jobs_total',
      help: 'Background jobs finished, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    jobsQueued: new Gauge({
      name: 'tessera_jobs_enqueued',
      help: 'Background jobs enqueued by this process',
      registers: [registry],
    }),
    derivedBytes: new Gauge({
      name: 'tessera_derived_cache_bytes',
      help: 'Bytes of all stored derived images (every process), read when metrics are scraped',
      registers: [registry],
    }),
    derivedBudgetBytes: new Gauge({
      name: 'tessera_derived_cache_budget_bytes',
      help: 'Byte budget of the derived-image cache (DERIVED_CACHE_MAX_BYTES)',
      registers: [registry],
    }),
    derivedEvictions: new Counter({
      name: 'tessera_derived_cache_evictions_total',
      help: 'Derived images this process evicted to keep the cache within its budget',
      registers: [registry],
    }),
    derivedNotStored: new Counter({
      name: 'tessera_derived_not_stored_total',
      help: 'Derived images answered but not stored (larger than DERIVED_STORE_MAX_BYTES)',
      registers: [registry],
    }),
    renderLimited: new Counter({
      name: 'tessera_render_limited_total',
      help: 'Cache misses refused (429) by the per-address render limit',
      registers: [registry],
    }),
  }
}
