// Delivery: a URL path names an organisation, a file and a transformation chain; the answer is
// the original or the derived image, from the derived-image cache when it is there.
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import {
  isUrlError,
  MAX_TRANSFORMATIONS,
  MESSAGES,
  type ParsedOperation,
  type PatternResult,
  parseDeliveryPath,
  parsePattern,
  parseQueryOptions,
  parseRange,
  type UrlOptions,
  verifySignedUrl,
} from '@tessera/url'
import { aiCreditsOf, chargeCredits } from './billing-api.ts'
import type { AppContext } from './context.ts'
import { engineErrorToHttp } from './engine-errors.ts'
import { HttpError } from './http-error.ts'
import { expandStoredPresets } from './preset-expansion.ts'

/** What a delivery request resolved to, before any image work. */
interface Resolved {
  organisationId: string
  file: FileRow
  operations: ParsedOperation[]
  options: UrlOptions
}

type FileRow = NonNullable<Awaited<ReturnType<AppContext['repo']['findFile']>>>

/** The parts of a request delivery needs. */
export interface DeliveryRequest {
  method: string
  /** The raw path, percent-escapes kept (`/v2/demo/t.flip()/a%20b.png`). */
  path: string
  /** The raw query, with or without `?`. */
  search: string
  /** The full URL as requested, for signed-URL checks. */
  url: string
  headers: Headers
  /** The organisation named by a custom-domain host, when the request came through one. */
  customDomainOrganisationId?: string
}

const DERIVE_JOB = 'derive'
/** The ledger reason of credits spent on a slow (AI) delivery transformation. */
const AI_REASON = 'ai_transformation'

function toWebStream(body: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(body) as ReadableStream<Uint8Array>
}

function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json; charset=utf-8', ...extra }
}

function decodeFilePath(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new HttpError(400, 'invalid_path', 'The file path has a malformed percent-escape')
  }
}

/**
 * Refuses `..`, `.`, backslashes and encoded separators in a raw request path: no stored path has
 * them, and a client that sends them is probing for traversal.
 *
 * @throws {HttpError} 400 `invalid_path`.
 */
export function assertNoTraversal(rawPath: string): void {
  const lower = rawPath.toLowerCase()
  if (
    rawPath.includes('\\') ||
    lower.includes('%5c') ||
    lower.includes('%2f') ||
    lower.includes('%00') ||
    rawPath.split('/').some((segment) => {
      const decoded = segment.toLowerCase().replaceAll('%2e', '.')
      return decoded === '.' || decoded === '..'
    })
  ) {
    throw new HttpError(400, 'invalid_path', 'Path traversal is not allowed in delivery URLs')
  }
}

function checked(result: PatternResult): ParsedOperation[] {
  const first = result.issues[0]
  if (first !== undefined) {
    throw new HttpError(400, 'invalid_transformation', `${first.operation}: ${first.message}`, {
      cause: result.issues,
    })
  }
  return result.value
}

/** Normal form of the operation chain: same operations and values → same cache key. */
function normalisedChain(operations: readonly ParsedOperation[]): string {
  return JSON.stringify(
    operations.map((operation) => [
      operation.spec?.key ?? `${operation.plugin}.${operation.name}`,
      Object.entries(operation.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ]),
  )
}

function readDpr(options: UrlOptions, headers: Headers): number {
  if (options.dpr === undefined) return 1
  if (options.dpr !== 'auto') return options.dpr
  // Client hints: Sec-CH-DPR (current) or DPR (legacy); out-of-range hints are clamped.
  const hint = Number(headers.get('sec-ch-dpr') ?? headers.get('dpr') ?? '1')
  if (!Number.isFinite(hint)) return 1
  return Math.min(5, Math.max(0.1, Math.round(hint * 100) / 100))
}

/** Creates the delivery handler over the app's services. */
export function createDelivery(app: AppContext) {
  const { repo, lookups, storage, engine, metrics, config, logger } = app
  // Identical requests arriving together share one computation.
  const inFlight = new Map<string, Promise<Derived>>()

  interface Derived {
    storageKey: string
    contentType: string
    size: number
    data: Buffer
    /** Settles once the image is in storage and the index; the answer does not wait for it. */
    persisted: Promise<void>
  }

  async function expand(organisationId: string, pattern: string): Promise<string> {
    const expanded = await expandStoredPresets(pattern, (name) =>
      lookups.preset(organisationId, name),
    )
    if (expanded === undefined) {
      throw new HttpError(400, 'invalid_preset', 'Presets nest too deeply')
    }
    return expanded
  }

  /** The file `t.merge(i:…)` names: by id (as uploads answer it), or by a path without folders. */
  async function findMergeFile(organisationId: string, reference: string) {
    return (
      (await repo.findFileById(organisationId, reference)) ??
      (await lookups.file(organisationId, decodeFilePath(reference)))
    )
  }

  async function mergedFiles(organisationId: string, operations: readonly ParsedOperation[]) {
    const found: FileRow[] = []
    for (const operation of operations) {
      const reference = operation.params.i
      if (operation.spec?.key !== 't.merge' || typeof reference !== 'string' || reference === '') {
        continue
      }
      const other = await findMergeFile(organisationId, reference)
      if (other === undefined) {
        throw new HttpError(400, 'missing_file', `t.merge: no file '${reference}' to merge`)
      }
      found.push(other)
    }
    return found
  }

  // Traversal in the raw path is refused by the app before routing (`assertNoTraversal`).
  async function resolve(request: DeliveryRequest): Promise<Resolved & { pattern: string }> {
    const isCustomDomain = request.customDomainOrganisationId !== undefined
    const parts = parseDeliveryPath(request.path, { isCustomDomain })
    const options = parseQueryOptions(request.search)
    let organisationId: string
    let requireSignedUrls: boolean
    if (isCustomDomain) {
      const organisation = await lookups.organisationById(
        request.customDomainOrganisationId as string,
      )
      if (organisation === undefined) throw new HttpError(404, 'not_found', 'Unknown organisation')
      organisationId = organisation.id
      requireSignedUrls = organisation.requireSignedUrls
    } else {
      const organisation = await lookups.organisationByCloudName(parts.cloudName as string)
      if (organisation === undefined) {
        throw new HttpError(404, 'not_found', `Unknown cloud name '${parts.cloudName}'`)
      }
      organisationId = organisation.id
      requireSignedUrls = organisation.requireSignedUrls
    }
    if (
      parts.zone !== undefined &&
      (await lookups.zone(organisationId, parts.zone)) === undefined
    ) {
      throw new HttpError(404, 'not_found', `Unknown zone '${parts.zone}'`)
    }
    if (requireSignedUrls) {
      const check = await verifySignedUrl(request.url, {
        getToken: async (accessKey) => {
          const key = await repo.findSigningKey(accessKey)
          return key !== undefined && key.organisationId === organisationId ? key.secret : undefined
        },
      })
      if (!check.valid) {
        throw new HttpError(401, 'invalid_signature', `This URL must be signed (${check.reason})`)
      }
    }
    if (parts.worker) {
      throw new HttpError(404, 'not_found', 'No URL-translation worker is set up for this zone')
    }
    const filePath = decodeFilePath(parts.filePath)
    const file = await lookups.file(organisationId, filePath)
    if (file === undefined) throw new HttpError(404, 'not_found', `No file at '${filePath}'`)

    // Check the pattern as written first (its own syntax and operations), then with presets
    // expanded, so each error names what the user actually wrote.
    let expanded = parts.pattern
    let value = checked(parsePattern(expanded, { format: file.format }))
    if (value.some((operation) => operation.presetName !== undefined)) {
      expanded = await expand(organisationId, parts.pattern)
      value = checked(parsePattern(expanded, { format: file.format }))
    }
    // Presets are expanded by now, so every operation counts once.
    if (value.length > MAX_TRANSFORMATIONS) {
      throw new HttpError(400, 'too_many_transformations', MESSAGES.maxTransformations)
    }
    const unavailable = value.find((operation) => operation.spec?.runnable !== true)
    if (unavailable !== undefined) {
      throw new HttpError(
        501,
        'operation_unavailable',
        `${unavailable.spec?.key ?? unavailable.text} is not available on this server yet`,
      )
    }
    return { organisationId, file, operations: value, options, pattern: expanded }
  }

  function baseHeaders(etag: string, vary: string[]): Record<string, string> {
    const headers: Record<string, string> = {
      etag,
      'cache-control': `public, max-age=${config.cacheMaxAge}`,
      'x-content-type-options': 'nosniff',
    }
    if (vary.length > 0) headers.vary = vary.join(', ')
    return headers
  }

  async function original(request: DeliveryRequest, file: FileRow): Promise<Response> {
    const etag = `"${file.hash}"`
    const headers = baseHeaders(etag, [])
    headers['accept-ranges'] = 'bytes'
    headers['content-type'] = file.contentType
    // An SVG original is served as a document that can run nothing, even if opened directly.
    if (file.format === 'svg') {
      headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    }
    if (request.headers.get('if-none-match') === etag) {
      metrics.cache.inc({ result: 'not_modified' })
      return new Response(null, { status: 304, headers })
    }
    const rangeHeader = request.headers.get('range')
    const range = rangeHeader === null ? undefined : parseRange(rangeHeader, file.size)
    if (range === 'unsatisfiable') {
      return new Response(null, {
        status: 416,
        headers: { 'content-range': `bytes */${file.size}` },
      })
    }
    // HEAD opens nothing: an unread stream would hold its file open.
    const stored =
      request.method === 'HEAD'
        ? await storage
            .stat(file.storageKey)
            .then((stat) => stat && { body: undefined, size: stat.size })
        : await storage.stream(file.storageKey, range)
    if (stored === undefined)
      throw new HttpError(404, 'not_found', 'The file is missing from storage')
    const body = stored.body === undefined ? null : toWebStream(stored.body)
    if (range !== undefined) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${stored.size}`
      headers['content-length'] = String(range.end - range.start + 1)
      return new Response(body, { status: 206, headers })
    }
    headers['content-length'] = String(stored.size)
    return new Response(body, { status: 200, headers })
  }

  async function derive(
    resolved: Resolved,
    cacheKey: string,
    dpr: number,
    accept: string | undefined,
  ): Promise<Derived> {
    const { file, operations, options } = resolved
    // Recently transformed originals stay in memory too: a burst of new sizes of one image
    // reads it from storage once.
    let input = lookups.bytes.get(file.storageKey)
    if (input === undefined) {
      input = await storage.get(file.storageKey)
      if (input === undefined) {
        throw new HttpError(404, 'not_found', 'The file is missing from storage')
      }
      lookups.bytes.set(file.storageKey, input)
    }
    const result = await engine.transform({
      input,
      operations,
      ...(accept === undefined ? {} : { accept }),
      autoFormat: options.f_auto === true,
      dpr,
      loadFile: async (reference: string) => {
        const other = await findMergeFile(resolved.organisationId, reference)
        return other === undefined ? undefined : storage.get(other.storageKey)
      },
    })
    const storageKey = `orgs/${resolved.organisationId}/derived/${cacheKey}.${result.format}`
    lookups.bytes.set(storageKey, result.data)
    // Storing (write, fsync, rename) and indexing happen after the answer is on its way; until
    // they finish, identical requests are answered from the in-flight entry.
    const persisted = (async () => {
      await storage.put(storageKey, result.data, { contentType: result.contentType })
      await repo.recordDerived({
        organisationId: resolved.organisationId,
        fileId: file.id,
        fileVersion: file.version,
        cacheKey,
        storageKey,
        format: result.format,
        contentType: result.contentType,
        size: result.data.length,
        width: result.width,
        height: result.height,
      })
    })()
    persisted.catch((error: unknown) => logger.error({ err: error, cacheKey }, 'could not store'))
    return {
      storageKey,
      contentType: result.contentType,
      size: result.data.length,
      data: result.data,
      persisted,
    }
  }

  function deriveOnce(
    resolved: Resolved,
    cacheKey: string,
    dpr: number,
    accept: string | undefined,
  ): Promise<Derived> {
    let running = inFlight.get(cacheKey)
    if (running === undefined) {
      running = derive(resolved, cacheKey, dpr, accept)
      inFlight.set(cacheKey, running)
      running
        .then((derived) => derived.persisted)
        .catch(() => undefined)
        .finally(() => inFlight.delete(cacheKey))
    }
    return running
  }

  async function deliver(request: DeliveryRequest): Promise<Response> {
    let resolved: Resolved & { pattern: string }
    try {
      resolved = await resolve(request)
    } catch (error) {
      if (isUrlError(error)) {
        const status =
          error.code === 'invalid_url' && error.message === MESSAGES.invalidUrl ? 404 : 400
        throw new HttpError(status, status === 404 ? 'not_found' : error.code, error.message, {
          cause: error,
        })
      }
      throw error
    }
    const { file, operations, options } = resolved
    if (operations.length === 0) return original(request, file)

    const accept = request.headers.get('accept') ?? undefined
    const dpr = readDpr(options, request.headers)
    const format = engine.chooseOutputFormat({
      sourceFormat: file.format,
      operations,
      ...(accept === undefined ? {} : { accept }),
      autoFormat: options.f_auto === true,
    })
    const vary: string[] = []
    if (options.f_auto === true) vary.push('Accept')
    if (options.dpr === 'auto') vary.push('Sec-CH-DPR', 'DPR')
    // Files a chain merges in are part of what it shows: their versions are part of the key.
    const merged = await mergedFiles(resolved.organisationId, operations)
    const cacheKey = createHash('sha256')
      .update(`${file.id}\n${file.version}\n${normalisedChain(operations)}\n${format}\n${dpr}`)
      .update(merged.map((other) => `\n${other.id}:${other.version}`).join(''))
      .digest('hex')
      .slice(0, 40)
    const etag = `"${cacheKey}"`
    const headers = baseHeaders(etag, vary)
    if (request.headers.get('if-none-match') === etag) {
      metrics.cache.inc({ result: 'not_modified' })
      return new Response(null, { status: 304, headers })
    }

    const cached = await lookups.derived(cacheKey)
    if (cached !== undefined) {
      headers['content-type'] = cached.contentType
      headers['content-length'] = String(cached.size)
      if (request.method === 'HEAD') {
        metrics.cache.inc({ result: 'hit' })
        return new Response(null, { status: 200, headers })
      }
      // Derived images are small (bounded by the output limits): read whole, keep hot ones.
      let data = lookups.bytes.get(cached.storageKey)
      if (data === undefined) {
        data = await storage.get(cached.storageKey)
        if (data !== undefined) lookups.bytes.set(cached.storageKey, data)
      }
      if (data !== undefined) {
        metrics.cache.inc({ result: 'hit' })
        return new Response(new Uint8Array(data.buffer, data.byteOffset, data.length), {
          status: 200,
          headers,
        })
      }
    }
    if (operations.some((operation) => operation.spec?.slow === true)) {
      metrics.cache.inc({ result: 'miss' })
      const existing = await repo.findJobByDedupeKey(cacheKey)
      if (existing?.status === 'failed') {
        throw new HttpError(
          422,
          'transformation_failed',
          existing.error ?? 'The transformation failed',
        )
      }
      // AI operations spend the organisation's credits, once per derived image (its cache key).
      // A job that exists was paid for when it was queued.
      if (existing === undefined) {
        const credits = aiCreditsOf(operations)
        await chargeCredits(repo, resolved.organisationId, credits, AI_REASON, cacheKey)
      }
      const job = await repo.enqueueJob({
        kind: DERIVE_JOB,
        organisationId: resolved.organisationId,
        dedupeKey: cacheKey,
        payload: {
          organisationId: resolved.organisationId,
          fileId: file.id,
          path: file.path,
          pattern: resolved.pattern,
          options,
          dpr,
          accept: accept ?? null,
          cacheKey,
          format,
        },
      })
      metrics.jobsQueued.inc()
      app.wakeJobs()
      return new Response(JSON.stringify({ status: 'processing', jobId: job.id }), {
        status: 202,
        headers: jsonHeaders({ 'retry-after': '1', 'cache-control': 'no-store' }),
      })
    }

    // An identical request still being computed or stored here is shared: no new work.
    const pending = inFlight.get(cacheKey)
    metrics.cache.inc({ result: pending === undefined ? 'miss' : 'hit' })
    let derived: Derived
    try {
      derived = await (pending ?? deriveOnce(resolved, cacheKey, dpr, accept))
    } catch (error) {
      throw engineErrorToHttp(error)
    }
    headers['content-type'] = derived.contentType
    headers['content-length'] = String(derived.size)
    const data = derived.data
    const body =
      request.method === 'HEAD' ? null : new Uint8Array(data.buffer, data.byteOffset, data.length)
    return new Response(body, {
      status: 200,
      headers,
    })
  }

  /** Runs one derive job (the slow path): same work as a request, stored for the next one. */
  async function runDeriveJob(payload: {
    organisationId: string
    fileId?: string
    path: string
    pattern: string
    options: UrlOptions
    dpr: number
    accept: string | null
    cacheKey: string
    format: string
  }): Promise<void> {
    // By id: a file renamed or moved while its job waited is still the same file.
    const file =
      payload.fileId === undefined
        ? await repo.findFile(payload.organisationId, payload.path)
        : await repo.findFileById(payload.organisationId, payload.fileId)
    if (file === undefined) throw new HttpError(404, 'not_found', 'The file no longer exists')
    const { value } = parsePattern(payload.pattern, { format: file.format })
    const derived = await deriveOnce(
      { organisationId: payload.organisationId, file, operations: value, options: payload.options },
      payload.cacheKey,
      payload.dpr,
      payload.accept ?? undefined,
    )
    // The job is done once the image is stored and indexed, not when it is computed.
    await derived.persisted
  }

  /** Waits until every derived image computed so far is stored (for a clean shutdown). */
  async function settle(): Promise<void> {
    await Promise.allSettled(
      [...inFlight.values()].map((running) => running.then((derived) => derived.persisted)),
    )
  }

  return { deliver, runDeriveJob, settle, DERIVE_JOB }
}
