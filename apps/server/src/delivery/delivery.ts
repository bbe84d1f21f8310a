// Delivery: a URL path names an organisation, a file and a transformation chain; the answer is
// the original or the derived image, from the derived-image cache when it is there. The steps
// are modules of their own: resolve (what the URL names), cache-key, respond (headers, ETag,
// 304), derive (the engine, then storage), budget (the cache's bounds), job (the slow path).
import type { StepReport } from '@tessera/engine'
import type { AppContext } from '../context.ts'
import { type DerivedImage, schema } from '../db/index.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import { createAiJobs, isSlow, type Target } from './ai-jobs.ts'
import { createDerivedBudget } from './budget.ts'
import { aiDpr, derivedCacheKey, readDpr, varyOf } from './cache-key.ts'
import { addCors, corsHeaders, countDelivery, withCors } from './cors.ts'
import { createDeriver, type Intermediate } from './derive.ts'
import { createDerivedKeys } from './derived-keys.ts'
import type { NewAiRenderListener } from './events.ts'
import { createFastLane, variantOf } from './fast-lane.ts'
import { createDeriveJobHandler } from './job.ts'
import { createRenderLimit } from './render-limit.ts'
import { createResolver, type DeliveryRequest, type FileRow, type Resolved } from './resolve.ts'
import {
  cacheHeaders,
  convertsOriginal,
  ifNoneMatchMatches,
  imageResponse,
  notModified,
  serveOriginal,
} from './respond.ts'
import { createStrictTransformations } from './strict-transformations.ts'
import { isVideoAnswer, outputOf } from './video.ts'

export type { NewAiRender, NewAiRenderListener } from './events.ts'
export type { DeliveryRequest } from './resolve.ts'

/** The most renders one image too large to store counts as (its bytes over the store limit). */
const MAX_RENDER_COST = 100

/** The transformation context of a delivery URL: its file and the chain's steps as they ran. */
export interface TransformationContext {
  file: FileRow
  steps: StepReport[]
  /** The format the URL answers in (as delivery chooses it, `f_auto` included). */
  format: string
}

const rangeOf = (request: DeliveryRequest) => request.headers.get('range')
const ANIMATABLE = new Set(['gif', 'webp'])

export type Delivery = ReturnType<typeof createDelivery>

/** Creates the delivery handler over the app's services. */
export function createDelivery(
  app: AppContext,
  events: { onNewAiRender?: NewAiRenderListener } = {},
) {
  const { repo, lookups, engine, metrics, config } = app
  const strict = createStrictTransformations(app)
  const resolver = createResolver(app)
  // The index's keys in memory, on the embedded database only (one process: derived-keys.ts).
  const keys = createDerivedKeys({
    enabled: app.database.kind === 'pglite',
    load: async (limit) => {
      const rows = await app.database.db
        .select({ cacheKey: schema.derivedImages.cacheKey })
        .from(schema.derivedImages)
        .limit(limit)
      return rows.map((row) => row.cacheKey)
    },
    onError: (error) => app.logger.warn({ err: error }, 'could not read the derived keys'),
  })
  const budget = createDerivedBudget(app, { evicted: keys.removed })
  const deriver = createDeriver(app, { budget, findMergeFile: resolver.findMergeFile, keys })
  const { countRender } = createRenderLimit(app)
  const onNewAiRender: NewAiRenderListener = events.onNewAiRender ?? (async () => undefined)
  const { queue, aiPrefixOf, intermediateOf } = createAiJobs(app, {
    strict,
    resolver,
    budget,
    countRender,
    onNewAiRender,
  })
  // Hits answered before routing (decision 010); every change the lookups hear of reaches it.
  const cacheCounters = {
    hit: metrics.cache.labels({ result: 'hit' }),
    not_modified: metrics.cache.labels({ result: 'not_modified' }),
  }
  const fastLane = createFastLane({
    ttlMs: config.lookupTtlMs,
    maxBytes: config.hotCacheBytes,
    bytes: lookups.bytes,
    touch: (row) => budget.touch(row),
    countCache: (result) => cacheCounters[result].inc(),
    countUsage: (organisationId, bytes) => app.usage.count(organisationId, { requests: 1, bytes }),
  })
  lookups.onChange((change) => fastLane.forget(change))

  /** The stored image of `cacheKey`, when the index and storage both have it. */
  async function fromCache(
    request: DeliveryRequest,
    cacheKey: string,
    headers: Record<string, string>,
  ): Promise<{ response: Response; data?: Buffer; row: DerivedImage } | undefined> {
    const cached = await lookups.derived(cacheKey)
    if (cached === undefined) return undefined
    if (request.method === 'HEAD') {
      metrics.cache.inc({ result: 'hit' })
      budget.touch(cached)
      headers['content-type'] = cached.contentType
      headers['content-length'] = String(cached.size)
      // A video's GET answers ranges, and its HEAD says so (players ask before they fetch).
      if (isVideoAnswer(cached)) headers['accept-ranges'] = 'bytes'
      return { response: new Response(null, { status: 200, headers }), row: cached }
    }
    // Derived images are small (bounded by the output limits and DERIVED_STORE_MAX_BYTES):
    // read whole, keep hot ones. Once read, an eviction cannot cut the answer short; one
    // between the lookup and the read makes this a miss that renders again.
    let data = lookups.bytes.get(cached.storageKey)
    if (data === undefined) {
      data = await budget.readServing(cached.storageKey)
      if (data !== undefined) lookups.bytes.set(cached.storageKey, data)
    }
    if (data === undefined) return undefined
    metrics.cache.inc({ result: 'hit' })
    budget.touch(cached)
    return {
      response: imageResponse(request.method, data, cached.contentType, headers, rangeOf(request)),
      data,
      row: cached,
    }
  }

  /**
   * An image too large to store is made again by every request for it: it counts against the
   * render limit at its cost, one render per `DERIVED_STORE_MAX_BYTES` it holds (issue 19
   * finding 13). This answer is already made and goes out; the next ones are refused.
   */
  async function countUnstored(request: DeliveryRequest, size: number): Promise<void> {
    const storeMax = Math.max(1, config.derivedCache.storeMaxBytes)
    if (size <= storeMax) return
    const cost = Math.min(MAX_RENDER_COST, Math.ceil(size / storeMax))
    try {
      // The render itself was counted before it ran.
      for (let counted = 1; counted < cost; counted++) await countRender(request)
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 429)) throw error
    }
  }

  /** Derives the image now, or joins the identical derivation running in this process. */
  async function deriveNow(
    request: DeliveryRequest,
    resolved: Resolved,
    target: Target,
    headers: Record<string, string>,
    from?: Intermediate,
  ): Promise<Response> {
    const pending = deriver.pending(target.cacheKey)
    if (pending === undefined) await countRender(request)
    metrics.cache.inc({ result: pending === undefined ? 'miss' : 'hit' })
    try {
      const derived = await (pending ??
        deriver.deriveOnce(resolved, target.cacheKey, target.dpr, target.accept, false, from))
      if (pending === undefined) await countUnstored(request, derived.size)
      return imageResponse(
        request.method,
        derived.data,
        derived.contentType,
        headers,
        rangeOf(request),
      )
    } catch (error) {
      throw engineErrorToHttp(error)
    }
  }

  /** The derived image a resolved request asks for, and the headers it is served with. */
  async function targetOf(request: DeliveryRequest, resolved: Resolved) {
    const { file, operations, options } = resolved
    const accept = request.headers.get('accept') ?? undefined
    const hinted = readDpr(options, request.headers)
    // An AI render costs credits: a client hint picks one of a few DPR steps (finding 8).
    const dpr = options.dpr === 'auto' && operations.some(isSlow) ? aiDpr(hinted) : hinted
    const autoFormat = options.f_auto === true
    const { format, video } = outputOf(engine, file, operations, { accept, autoFormat, dpr })
    const merged = await resolver.mergedFiles(resolved.organisationId, operations)
    const cacheKey = derivedCacheKey({ file, operations, format, dpr, merged })
    const etag = `"${cacheKey}"`
    const headers = cacheHeaders(etag, varyOf(options), config.cacheMaxAge)
    // AI models see the first frame of an animation (the step's context says `firstFrameOnly`);
    // formats that can animate say so on every answer, cached or not.
    if (ANIMATABLE.has(file.format) && operations.some(isSlow)) headers['x-ai-frames'] = 'first'
    const target: Target = { cacheKey, dpr, accept, format, ...(video ? { video } : {}) }
    return { target, etag, headers }
  }

  async function deliver(request: DeliveryRequest): Promise<Response> {
    // As the request arrived: an answer resolved over rows a change has since made stale (the
    // custom domain's owner, read before delivery starts, included) is not remembered.
    const generation = request.raw?.generation ?? fastLane.generation
    const resolved = await resolver.resolve(request)
    const response = await answer(request, resolved, generation)
    return countDelivery(app.usage, resolved.organisationId, request.method, response)
  }

  async function answer(request: DeliveryRequest, resolved: Resolved, generation: number) {
    const { file, operations } = resolved
    const converted = convertsOriginal(file, operations.length)
    const cors = corsHeaders(resolved.corsOrigins ?? [], request.headers.get('origin'))
    if (operations.length === 0 && !converted) return serveOriginal(app, request, file, cors)

    const { target, etag, headers } = await targetOf(request, resolved)
    addCors(headers, cors)
    if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) {
      metrics.cache.inc({ result: 'not_modified' })
      return notModified(headers)
    }
    const notModifiedHeaders = { ...headers }
    // A plain render the index certainly lacks skips its lookup; a chain that queues a job (an AI
    // model, a video) always asks, as a wrong "absent" there would queue it again.
    const plain = target.video === undefined && !operations.some(isSlow)
    const cached =
      plain && keys.absent(target.cacheKey)
        ? undefined
        : await fromCache(request, target.cacheKey, headers)
    if (cached !== undefined) {
      const { raw } = request
      // Videos are left to this path, which answers their ranges.
      if (raw !== undefined && cached.data !== undefined && !isVideoAnswer(cached.row)) {
        const vary = varyOf(resolved.options).map((name) => name.toLowerCase())
        if (cors.varyOrigin) vary.push('origin')
        fastLane.keep(
          {
            key: raw.key,
            vary,
            variant: variantOf(raw.headers, vary),
            organisationId: resolved.organisationId,
            storageKey: cached.row.storageKey,
            data: cached.data,
            headers: notModifiedHeaders,
            contentType: cached.row.contentType,
            etag,
            row: cached.row,
            ...(resolved.signedUntil === undefined ? {} : { until: resolved.signedUntil }),
          },
          generation,
        )
      }
      return cached.response
    }
    if (operations.some(isSlow)) {
      const split = await aiPrefixOf(resolved, target.dpr)
      if (split === undefined) return withCors(await queue(request, resolved, target), cors)
      const from = await intermediateOf(split.target.cacheKey)
      if (from === undefined) {
        return withCors(await queue(request, split.prefix, split.target), cors)
      }
      // A new image from an AI result is still an AI URL: the same strict rule applies.
      await strict.assertAllowed(request, resolved.organisationId)
      return deriveNow(request, { ...resolved, operations: split.rest }, target, headers, from)
    }
    // A video answer is a job too (video.ts), checked and priced before it is queued.
    if (target.video?.job) return withCors(await queue(request, resolved, target), cors)
    return deriveNow(request, resolved, target, headers)
  }

  /**
   * A delivery URL as the console previews it for a member (issue 24 item 5): resolved for the
   * caller (`authorise` throws for anyone not in the URL's organisation), so neither a signature
   * nor strict transformations are asked for, and never spending credits: an AI chain answers
   * only once its image is in the cache (409 `not_run` before).
   */
  async function preview(
    request: DeliveryRequest,
    authorise: (organisationId: string) => Promise<void>,
  ): Promise<Response> {
    const resolved = await resolver.resolve(request, { authorise, trusted: true })
    const { file, operations } = resolved
    // An original browsers cannot show (HEIC, a PDF page, …) is converted, as delivery does.
    if (operations.length === 0 && !convertsOriginal(file, 0)) {
      return serveOriginal(app, request, file)
    }
    const { target, etag, headers } = await targetOf(request, resolved)
    if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) return notModified(headers)
    const cached = await fromCache(request, target.cacheKey, headers)
    if (cached !== undefined) return cached.response
    if (operations.some(isSlow) || target.video?.job) {
      throw new HttpError(
        409,
        'not_run',
        'This chain runs a job (an AI model or a video) that has not run yet; a preview never spends credits',
      )
    }
    return deriveNow(request, resolved, target, headers)
  }

  /**
   * The transformation context of a delivery URL (the chain's steps with what each found),
   * computed with the same cache as its image: a stored image's context is read from its row;
   * otherwise the image is derived now, or queued like delivery queues it (then the answer is
   * the 202 `Response`). `authorise` is called with the URL's organisation before anything
   * else is read, and throws for a caller who may not see it; the caller speaks for the
   * organisation, so neither a signature nor strict transformations are asked for. Without
   * `how.mayQueue` nothing new is queued or charged.
   */
  async function context(
    request: DeliveryRequest,
    authorise: (organisationId: string) => Promise<void>,
    how: { mayQueue: boolean } = { mayQueue: true },
  ): Promise<TransformationContext | Response> {
    const resolved = await resolver.resolve(request, { authorise, trusted: true })
    const { file, operations } = resolved
    if (operations.length === 0) return { file, steps: [], format: file.format }
    const { target } = await targetOf(request, resolved)
    const format = target.format
    // From the database, not this process's lookups: a row read before its context was filled
    // in must not send the caller round again.
    const cached = await repo.findDerived(target.cacheKey)
    if (cached?.context !== undefined && cached.context !== null) {
      return { file, steps: cached.context as unknown as StepReport[], format }
    }
    let rendered = resolved
    let from: Intermediate | undefined
    if (operations.some(isSlow) || target.video?.job) {
      // The AI steps' own image first (see `aiPrefixOf`); the steps after them render at once.
      const split = await aiPrefixOf(resolved, target.dpr)
      from = split === undefined ? undefined : await intermediateOf(split.target.cacheKey)
      if (split === undefined || from === undefined) {
        const [queued, queuedTarget] =
          split === undefined ? [resolved, target] : [split.prefix, split.target]
        // A call that may not spend (a GET with only the session cookie, which a cross-site
        // link carries: issue 19 finding 5) follows a job already paid for, and queues nothing
        // new.
        if (!how.mayQueue && (await repo.findJobByDedupeKey(queuedTarget.cacheKey)) === undefined) {
          throw new HttpError(
            400,
            'signature_missing',
            'This chain has not been run yet: queueing it spends credits, so the call must be signed (x-ebg-param and x-ebg-signature) or made with an API token',
          )
        }
        return queue(request, queued, queuedTarget, { trusted: true })
      }
      rendered = { ...resolved, operations: split.rest }
    }
    const pending = deriver.pending(target.cacheKey)
    // A render like a delivery miss, counted against the same per-address limit.
    if (pending === undefined) await countRender(request)
    try {
      const derived = await (pending ??
        deriver.deriveOnce(rendered, target.cacheKey, target.dpr, target.accept, false, from))
      if (pending === undefined) await countUnstored(request, derived.size)
      return { file, steps: derived.steps, format }
    } catch (error) {
      throw engineErrorToHttp(error)
    }
  }

  /**
   * Waits until every derived image computed so far is stored and the cache is back within its
   * budget (for a clean shutdown, and for tests).
   */
  async function settle(): Promise<void> {
    await keys.settle()
    await deriver.settle()
    await budget.settle()
  }

  return {
    deliver,
    /** The organisation a delivery path names (a CORS preflight's, `cors.ts`). */
    organisationOf: resolver.organisationOf,
    /** The lane that answers remembered hits before routing (`server.ts` calls it first). */
    fastLane,
    context,
    preview,
    settle,
    refreshCacheMetrics: budget.refreshCacheMetrics,
    /** The job runner's handler of `DERIVE_JOB`. */
    deriveJob: createDeriveJobHandler(app, deriver),
  }
}
