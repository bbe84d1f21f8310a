// Delivery: a URL path names an organisation, a file and a transformation chain; the answer is
// the original or the derived image, from the derived-image cache when it is there. The steps
// are modules of their own: resolve (what the URL names), cache-key, respond (headers, ETag,
// 304), derive (the engine, then storage), budget (the cache's bounds), job (the slow path).
import type { StepReport } from '@tessera/engine'
import type { ParsedOperation } from '@tessera/url'
import { aiCreditsOf, chargeCredits } from '../billing/credits.ts'
import type { AppContext } from '../context.ts'
import type { DerivedImage } from '../db/index.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'
import { HttpError } from '../http/errors.ts'
import { createDerivedBudget } from './budget.ts'
import { aiDpr, derivedCacheKey, readDpr, varyOf } from './cache-key.ts'
import { createDeriver } from './derive.ts'
import { createFastLane, variantOf } from './fast-lane.ts'
import {
  createDeriveJobHandler,
  DERIVE_JOB,
  DERIVE_VISITOR_JOB,
  type DeriveJobPayload,
  failedJobError,
} from './job.ts'
import { createRenderLimit } from './render-limit.ts'
import { createResolver, type DeliveryRequest, type FileRow, type Resolved } from './resolve.ts'
import {
  cacheHeaders,
  ifNoneMatchMatches,
  imageResponse,
  notModified,
  processingResponse,
  serveOriginal,
} from './respond.ts'
import { createStrictTransformations } from './strict-transformations.ts'
import { isVideoAnswer, outputOf, type VideoTarget, videoCharge } from './video.ts'

export type { DeliveryRequest } from './resolve.ts'

/** The ledger reason of credits spent on a slow (AI) delivery transformation. */
const AI_REASON = 'ai_transformation'

/** The most renders one image too large to store counts as (its bytes over the store limit). */
const MAX_RENDER_COST = 100

/** The derived image a request asks for: its key, and what it is rendered for. */
interface Target {
  cacheKey: string
  dpr: number
  accept: string | undefined
  format: string
  /** Set when video has a part in the answer (video.ts). */
  video?: VideoTarget
}

/** The transformation context of a delivery URL: its file and the chain's steps as they ran. */
export interface TransformationContext {
  file: FileRow
  steps: StepReport[]
  /** The format the URL answers in (as delivery chooses it, `f_auto` included). */
  format: string
}

const isSlow = (operation: ParsedOperation) => operation.spec?.slow === true
const rangeOf = (request: DeliveryRequest) => request.headers.get('range')
const ANIMATABLE = new Set(['gif', 'webp'])

export type Delivery = ReturnType<typeof createDelivery>

/** What delivery tells before it queues a new AI render (a cache miss, or a result evicted). */
export interface NewAiRender {
  organisationId: string
  /** The visitor's address, when the request came from a client. */
  clientAddress: string | undefined
  /** The credits the render costs. */
  credits: number
}

/**
 * Hears of a new AI render before it is queued, and may refuse it by throwing (the playground's
 * daily visitor allowance listens here: delivery sits below it and does not import it). The use
 * it answers is released when the render is not queued after all.
 */
export type NewAiRenderListener = (
  render: NewAiRender,
) => Promise<{ release(): Promise<unknown> } | undefined>

/** Creates the delivery handler over the app's services. */
export function createDelivery(
  app: AppContext,
  events: { onNewAiRender?: NewAiRenderListener } = {},
) {
  const { repo, lookups, engine, metrics, config } = app
  const strict = createStrictTransformations(app)
  const resolver = createResolver(app)
  const budget = createDerivedBudget(app)
  const deriver = createDeriver(app, { budget, findMergeFile: resolver.findMergeFile })
  const { countRender } = createRenderLimit(app)
  const onNewAiRender: NewAiRenderListener = events.onNewAiRender ?? (async () => undefined)
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
   * A chain with a slow (AI) operation runs as a job: checked against strict transformations,
   * charged once per derived image (its cache key), queued; 202.
   */
  async function queue(
    request: DeliveryRequest,
    resolved: Resolved,
    target: Target,
    how: { trusted?: boolean } = {},
  ): Promise<Response> {
    const { organisationId, file, operations, options } = resolved
    const { cacheKey } = target
    // Before anything is queued or charged; images already derived are served from the cache.
    if (how.trusted !== true) await strict.assertAllowed(request, organisationId, target)
    // An image too large for the AI models is refused now, not after a job and a charge.
    // Each AI step is judged on its own input (the pixels after the steps before it), by size
    // and by what it can do within AI_TIMEOUT_MS (issue 19 finding 4).
    if (file.width !== null && file.height !== null) {
      try {
        app.engine.checkAiInput(operations, file.width, file.height, target.dpr)
      } catch (error) {
        throw engineErrorToHttp(error)
      }
    }
    // A video chain is checked against the limits and priced from the file's row (video.ts).
    const video = videoCharge(app, file, operations, target)
    metrics.cache.inc({ result: 'miss' })
    const existing = await repo.findJobByDedupeKey(cacheKey)
    if (existing?.status === 'failed') throw failedJobError(existing)
    // A job queued or running was paid for when it was queued. A new render — none yet, or a
    // done one whose image has left the cache — counts and is charged (by the done run it
    // replaces, so requests racing on one eviction pay once); cached images cost nothing.
    // A done job whose image is still indexed (a caller that read before the row went in, or a
    // row stored before its context was kept) is not an eviction: it runs again, already paid.
    const evicted = existing?.status === 'done' && (await repo.findDerived(cacheKey)) === undefined
    if (existing === undefined || evicted) {
      const credits = aiCreditsOf(operations) + video.credits
      const reference =
        existing === undefined ? cacheKey : `${cacheKey}@${existing.updatedAt.toISOString()}`
      // On the demo, the visitor's daily allowance counts the credits the render costs.
      const allowance = await onNewAiRender({
        organisationId,
        clientAddress: request.clientAddress,
        credits,
      })
      try {
        await countRender(request)
        await chargeCredits(repo, organisationId, credits, video.reason ?? AI_REASON, reference)
      } catch (error) {
        await allowance?.release()
        throw error
      }
    }
    const payload: DeriveJobPayload = {
      organisationId,
      fileId: file.id,
      path: file.path,
      pattern: resolved.pattern,
      options,
      dpr: target.dpr,
      accept: target.accept ?? null,
      cacheKey,
      format: target.format,
    }
    // Visitors' jobs (the demo organisation's) take turns with every organisation's.
    const demo = await lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    const job = await repo.enqueueJob({
      kind: demo?.id === organisationId ? DERIVE_VISITOR_JOB : DERIVE_JOB,
      organisationId,
      dedupeKey: cacheKey,
      // A job that is done but whose image is not in the cache (evicted, or stored before its
      // context was kept) runs again, already paid for.
      rerunDone: existing?.status === 'done',
      payload: { ...payload },
    })
    metrics.jobsQueued.inc()
    app.wakeJobs()
    return processingResponse(job.id)
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
  ): Promise<Response> {
    const pending = deriver.pending(target.cacheKey)
    if (pending === undefined) await countRender(request)
    metrics.cache.inc({ result: pending === undefined ? 'miss' : 'hit' })
    try {
      const derived = await (pending ??
        deriver.deriveOnce(resolved, target.cacheKey, target.dpr, target.accept))
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
    const { format, video } = outputOf(engine, file, operations, accept, options.f_auto === true)
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
    const { file, operations } = resolved
    if (operations.length === 0) return serveOriginal(app, request, file)

    const { target, etag, headers } = await targetOf(request, resolved)
    if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) {
      metrics.cache.inc({ result: 'not_modified' })
      return notModified(headers)
    }
    const notModifiedHeaders = { ...headers }
    const cached = await fromCache(request, target.cacheKey, headers)
    if (cached !== undefined) {
      const { raw } = request
      // Videos are left to this path, which answers their ranges.
      if (raw !== undefined && cached.data !== undefined && !isVideoAnswer(cached.row)) {
        const vary = varyOf(resolved.options).map((name) => name.toLowerCase())
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
    if (operations.some(isSlow) || target.video?.job) return queue(request, resolved, target)
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
    if (operations.some(isSlow) || target.video?.job) {
      // A call that may not spend (a GET with only the session cookie, which a cross-site link
      // carries: issue 19 finding 5) follows a job already paid for, and queues nothing new.
      if (!how.mayQueue && (await repo.findJobByDedupeKey(target.cacheKey)) === undefined) {
        throw new HttpError(
          400,
          'signature_missing',
          'This chain has not been run yet: queueing it spends credits, so the call must be signed (x-ebg-param and x-ebg-signature) or made with an API token',
        )
      }
      return queue(request, resolved, target, { trusted: true })
    }
    const pending = deriver.pending(target.cacheKey)
    // A render like a delivery miss, counted against the same per-address limit.
    if (pending === undefined) await countRender(request)
    try {
      const derived = await (pending ??
        deriver.deriveOnce(resolved, target.cacheKey, target.dpr, target.accept))
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
    await deriver.settle()
    await budget.settle()
  }

  return {
    deliver,
    /** The lane that answers remembered hits before routing (`server.ts` calls it first). */
    fastLane,
    context,
    settle,
    refreshCacheMetrics: budget.refreshCacheMetrics,
    /** The job runner's handler of `DERIVE_JOB`. */
    deriveJob: createDeriveJobHandler(app, deriver),
  }
}
