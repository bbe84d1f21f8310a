// What delivery tells the features built on it (it imports none of them): a new AI render,
// before it is queued.

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
