// Deriving an image: the engine runs the chain on the original (kept hot in memory for a burst
// of sizes), the answer goes out at once, and the image is stored and indexed after it.
// Identical requests arriving together share one computation.
import type { StepReport } from '@tessera/engine'
import { isVideoFormat } from '@tessera/url'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import type { DerivedBudget } from './budget.ts'
import { createDerivedIndexWriter } from './derived-index.ts'
import type { DerivedKeys } from './derived-keys.ts'
import type { FileRow, Resolved } from './resolve.ts'
import { createStoreQueue, type StoreQueue } from './store-queue.ts'
import { autoAvifAllowed, deriveVideo, videoTargetOf } from './video.ts'

/** A derived image as computed, before (and while) it is stored. */
export interface Derived {
  storageKey: string
  contentType: string
  size: number
  data: Buffer
  width: number
  height: number
  /** Each step of the chain with what it found: the transformation context's steps. */
  steps: StepReport[]
  /** Settles once the image is in storage and the index; the answer does not wait for it. */
  persisted: Promise<void>
}

/**
 * A stored derived image a chain continues from (the result of its AI steps), and the steps
 * that made it, which come first in the continued chain's context.
 */
export interface Intermediate {
  storageKey: string
  steps: StepReport[]
}

export type Deriver = ReturnType<typeof createDeriver>

export function createDeriver(
  app: Pick<
    AppContext,
    'repo' | 'lookups' | 'storage' | 'engine' | 'video' | 'metrics' | 'config' | 'logger'
  > &
    Partial<Pick<AppContext, 'usage'>>,
  parts: {
    budget: DerivedBudget
    findMergeFile: (organisationId: string, reference: string) => Promise<FileRow | undefined>
    /** Where the writes of derived images wait their turn (default: `createStoreQueue()`). */
    stores?: StoreQueue
    /** Told of each row once it is in (delivery's set of the index's keys, derived-keys.ts). */
    keys?: Pick<DerivedKeys, 'recorded'>
  },
) {
  const { repo, lookups, storage, engine, metrics, config, logger } = app
  const { budget, findMergeFile } = parts
  const inFlight = new Map<string, Promise<Derived>>()
  const index = createDerivedIndexWriter(repo)
  const stores = parts.stores ?? createStoreQueue()

  async function derive(
    resolved: Omit<Resolved, 'pattern'>,
    cacheKey: string,
    dpr: number,
    accept: string | undefined,
    storeAlways: boolean,
    from: Intermediate | undefined,
  ): Promise<Derived> {
    const { file, operations, options } = resolved
    // Recently transformed originals stay in memory too: a burst of new sizes of one image
    // reads it from storage once. `from` names a stored intermediate (an AI step's result) the
    // operations continue from instead of the original.
    const inputKey = from?.storageKey ?? file.storageKey
    let input = lookups.bytes.get(inputKey)
    if (input === undefined) {
      input = await storage.get(inputKey)
      if (input === undefined) {
        throw new HttpError(404, 'not_found', 'The file is missing from storage')
      }
      // Videos are read for one job at a time, not in bursts: they would crowd the images out.
      if (from !== undefined || !isVideoFormat(file.format)) lookups.bytes.set(inputKey, input)
    }
    const autoFormat = options.f_auto === true
    const loadFile = async (reference: string) => {
      const other = await findMergeFile(resolved.organisationId, reference)
      return other === undefined ? undefined : storage.get(other.storageKey)
    }
    // An intermediate is an image: only a chain on the original itself may make a video.
    // Only a video's still reads `avif`; an image's format is the engine's own choice.
    const avif = isVideoFormat(file.format) && autoAvifAllowed(engine, file, operations, dpr)
    const video =
      from === undefined ? videoTargetOf(file, operations, { accept, autoFormat, avif }) : undefined
    const result =
      video !== undefined
        ? await deriveVideo(app, file, input, {
            operations,
            target: video,
            dpr,
            accept,
            autoFormat,
            loadFile,
          })
        : await engine.transform({
            input,
            operations,
            ...(accept === undefined ? {} : { accept }),
            autoFormat,
            dpr,
            loadFile,
          })
    // Every render counts in the organisation's usage (issue 24), AI jobs' included.
    app.usage?.count(resolved.organisationId, { renders: 1 })
    const storageKey = `orgs/${resolved.organisationId}/derived/${cacheKey}.${result.format}`
    const steps = from === undefined ? result.steps : [...from.steps, ...result.steps]
    // Too large to keep: answered, never stored (a job's result is stored whatever its size, as
    // storage is the only way it reaches the client; jobs cost credits, so they cannot flood).
    const computed = {
      storageKey,
      contentType: result.contentType,
      size: result.data.length,
      data: result.data,
      width: result.width,
      height: result.height,
      steps,
    }
    if (!storeAlways && result.data.length > config.derivedCache.storeMaxBytes) {
      metrics.derivedNotStored.inc()
      return { ...computed, persisted: Promise.resolve() }
    }
    // Storing (write, fsync, rename, the folder's fsync) and indexing (with the rows of other
    // images made in the same few milliseconds, derived-index.ts) happen after the answer is on
    // its way, a few writes at a time (store-queue.ts); until they finish, identical requests are
    // answered from the in-flight entry. The row goes in only once the file is durable.
    // A job's result is stored whatever the queue holds: storage is the only way it reaches the
    // client (jobs cost credits, so they cannot flood it).
    const written = stores.offer(
      result.data.length,
      () => storage.put(storageKey, result.data, { contentType: result.contentType }),
      storeAlways,
    )
    if (written === undefined) {
      // More waiting to be written than the queue holds: answered, rendered again next time.
      metrics.derivedNotStored.inc()
      return { ...computed, persisted: Promise.resolve() }
    }
    const persisted = written.then(async () => {
      await index.record({
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
        context: steps.map((step) => ({ ...step })),
      })
      // Before the in-flight entry goes (deriveOnce): no moment where neither answers for it.
      parts.keys?.recorded(cacheKey)
      budget.stored(result.data.length)
    })
    // Never read back: the bytes just made answer the next requests for this key from memory.
    lookups.bytes.set(storageKey, result.data)
    persisted.catch((error: unknown) => logger.error({ err: error, cacheKey }, 'could not store'))
    return { ...computed, persisted }
  }

  function deriveOnce(
    resolved: Omit<Resolved, 'pattern'>,
    cacheKey: string,
    dpr: number,
    accept: string | undefined,
    storeAlways = false,
    from?: Intermediate,
  ): Promise<Derived> {
    let running = inFlight.get(cacheKey)
    if (running === undefined) {
      running = derive(resolved, cacheKey, dpr, accept, storeAlways, from)
      inFlight.set(cacheKey, running)
      running
        .then((derived) => derived.persisted)
        .catch(() => undefined)
        .finally(() => inFlight.delete(cacheKey))
    }
    return running
  }

  /** The computation of `cacheKey` running in this process, if any. */
  function pending(cacheKey: string): Promise<Derived> | undefined {
    return inFlight.get(cacheKey)
  }

  /** Waits until every derived image computed so far is stored. */
  async function settle(): Promise<void> {
    await Promise.allSettled(
      [...inFlight.values()].map((running) => running.then((derived) => derived.persisted)),
    )
  }

  return { deriveOnce, pending, settle }
}
