// The slow (AI) path of delivery: a chain with an AI step runs as a job, checked, charged once
// per derived image and queued (202); a chain with ordinary steps after its last AI step is made
// from the AI step's own derived image (the intermediate, issue 24 item 3).
import type { StepReport } from '@tessera/engine'
import type { ParsedOperation } from '@tessera/url'
import { aiCreditsOf, chargeCredits } from '../billing/credits.ts'
import type { AppContext } from '../context.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { engineErrorToHttp } from '../http/engine-errors.ts'
import type { DerivedBudget } from './budget.ts'
import { derivedCacheKey } from './cache-key.ts'
import type { Intermediate } from './derive.ts'
import type { NewAiRenderListener } from './events.ts'
import { DERIVE_JOB, DERIVE_VISITOR_JOB, type DeriveJobPayload, failedJobError } from './job.ts'
import type { createResolver, DeliveryRequest, Resolved } from './resolve.ts'
import { processingResponse } from './respond.ts'
import type { createStrictTransformations } from './strict-transformations.ts'
import { type VideoTarget, videoCharge } from './video.ts'

/** The ledger reason of credits spent on a slow (AI) delivery transformation. */
const AI_REASON = 'ai_transformation'

/** The derived image a request asks for: its key, and what it is rendered for. */
export interface Target {
  cacheKey: string
  dpr: number
  accept: string | undefined
  format: string
  /** Set when video has a part in the answer (video.ts). */
  video?: VideoTarget
}

export const isSlow = (operation: ParsedOperation) => operation.spec?.slow === true
const lastSlowIndex = (operations: readonly ParsedOperation[]) => operations.findLastIndex(isSlow)

/** The AI jobs of delivery over the app's services and delivery's own parts. */
export function createAiJobs(
  app: AppContext,
  parts: {
    strict: ReturnType<typeof createStrictTransformations>
    resolver: ReturnType<typeof createResolver>
    budget: DerivedBudget
    countRender: (request: DeliveryRequest) => Promise<void>
    onNewAiRender: NewAiRenderListener
  },
) {
  const { repo, lookups, engine, metrics } = app
  const { strict, resolver, budget, countRender, onNewAiRender } = parts

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
      const aiCredits = aiCreditsOf(operations)
      const credits = aiCredits + video.credits
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
      if (aiCredits > 0) app.usage.count(organisationId, { aiRuns: 1 })
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
   * A chain with ordinary steps after its last AI step is made in two parts (issue 24 item 3):
   * the prefix up to and including that AI step is a derived image of its own, queued and
   * charged once under its own key, and the steps after it are rendered from that image at
   * once. Editing the later steps (a width, a slider) never runs or charges the model again.
   * Undefined for a chain that ends with its AI step (it is its own prefix).
   */
  async function aiPrefixOf(resolved: Resolved, dpr: number) {
    const cut = lastSlowIndex(resolved.operations)
    if (cut === -1 || cut === resolved.operations.length - 1) return undefined
    const operations = resolved.operations.slice(0, cut + 1)
    // The intermediate is one image whatever the client accepts: no `f_auto`.
    const { f_auto: _auto, ...options } = resolved.options
    const format = engine.chooseOutputFormat({
      sourceFormat: resolved.file.format,
      operations,
      autoFormat: false,
    })
    const merged = await resolver.mergedFiles(resolved.organisationId, operations)
    const cacheKey = derivedCacheKey({ file: resolved.file, operations, format, dpr, merged })
    const prefix: Resolved = {
      ...resolved,
      operations,
      options,
      pattern: operations.map((operation) => operation.text).join('~'),
    }
    const target: Target = { cacheKey, dpr, accept: undefined, format }
    return { prefix, rest: resolved.operations.slice(cut + 1), target }
  }

  /** The stored intermediate of `cacheKey` (its bytes now in memory), when it is there. */
  async function intermediateOf(cacheKey: string): Promise<Intermediate | undefined> {
    const row = await lookups.derived(cacheKey)
    if (row === undefined) return undefined
    let data = lookups.bytes.get(row.storageKey)
    if (data === undefined) {
      data = await budget.readServing(row.storageKey)
      if (data === undefined) return undefined
      lookups.bytes.set(row.storageKey, data)
    }
    budget.touch(row)
    return {
      storageKey: row.storageKey,
      steps: (row.context ?? []) as unknown as StepReport[],
    }
  }

  return { queue, aiPrefixOf, intermediateOf }
}
