// Types for the part of autocannon 9 that the delivery and web benchmarks use (the package ships none).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  /** One request of the sequence each connection loops over. */
  export interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (
      request: AutocannonRequest,
      context: Record<string, unknown>,
    ) => AutocannonRequest
  }

  export interface AutocannonOptions {
    url: string
    connections?: number
    pipelining?: number
    /** Seconds; ignored when `amount` is set. */
    duration?: number
    amount?: number
    /** Seconds before a request counts as timed out. */
    timeout?: number
    headers?: Record<string, string>
    requests?: AutocannonRequest[]
  }

  export interface AutocannonResult {
    /** Seconds. */
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
    /** Response times, ms. */
    latency: { p50: number; p99: number; average: number }
    requests: { total: number; average: number }
    /** Response bytes. */
    throughput: { total: number }
  }

  export interface AutocannonInstance extends EventEmitter {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
    ): this
    on(event: 'reqError', listener: (error: Error) => void): this
    stop(): void
  }

  function autocannon(
    options: AutocannonOptions,
    callback: (error: Error | null, result: AutocannonResult) => void,
  ): AutocannonInstance

  export default autocannon
}
