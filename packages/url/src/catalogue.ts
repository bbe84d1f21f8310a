import { PLUGINS } from './catalogue-data.ts'
import type { PARAM_TYPES } from './constants.ts'

/** One of `PARAM_TYPES`. */
export type ParamType = (typeof PARAM_TYPES)[number]

/** One parameter of an operation. */
export interface ParamSpec {
  /** The key used in URLs (`w` in `t.resize(w:300)`). */
  id: string
  /** The long name SDKs use (`width`). */
  name: string
  /** A label for people (`Width`). */
  title: string
  type: ParamType
  /** Applied when the URL does not give the parameter; null when there is none. */
  default: string | number | boolean | null
  required: boolean
  /** Allowed values of an `enum` parameter. */
  enum?: readonly string[]
  /** Inclusive lower bound of a numeric parameter. */
  min?: number
  /** Inclusive upper bound of a numeric parameter. */
  max?: number
  /**
   * The form a `string` parameter must have, as a regular-expression source matched against the
   * whole value (`ic.crop`'s `ar`), with `expected` naming it in messages.
   */
  pattern?: string
  /** What a value of `pattern` looks like, for people (`a ratio such as 16_9, 2 or 0.25`). */
  expected?: string
}

/** One operation, `plugin.method(...)`. */
export interface OperationSpec {
  plugin: string
  method: string
  /** `plugin.method`, the key the engine registers its implementation under. */
  key: string
  /** Whether this server's engine runs the operation (others still parse). */
  runnable: boolean
  /** Slow operations are computed by a background job (delivery answers 202 meanwhile). */
  slow: boolean
  /**
   * Why this server does not run the operation (`runnable: false` only), for people: shown in
   * the 501 answer, the docs and the playground (`it needs a generative image model, …`).
   */
  unavailableReason?: string
  displayName: string
  description: string
  /** Source formats the operation accepts; absent means any transformable format. */
  formats?: readonly string[]
  params: readonly ParamSpec[]
}

/** A plugin: a family of operations under one identifier (`t`, `erase`, `sr`, …). */
export interface PluginSpec {
  id: string
  name: string
  description: string
  operations: readonly OperationSpec[]
}

/** A catalogue with lookups; `createCatalogue` builds one from plugin records. */
export interface Catalogue {
  plugins: readonly PluginSpec[]
  getPlugin(id: string): PluginSpec | undefined
  getOperation(plugin: string, method: string): OperationSpec | undefined
}

/**
 * Builds a catalogue with constant-time lookups from plugin records, e.g. to add a
 * deployment's own plugins or to test validation rules.
 */
export function createCatalogue(plugins: readonly PluginSpec[]): Catalogue {
  const byId = new Map<string, PluginSpec>()
  const operations = new Map<string, Map<string, OperationSpec>>()
  for (const plugin of plugins) {
    byId.set(plugin.id, plugin)
    operations.set(
      plugin.id,
      new Map(plugin.operations.map((operation) => [operation.method, operation])),
    )
  }
  return {
    plugins,
    getPlugin: (id) => byId.get(id),
    getOperation: (plugin, method) => operations.get(plugin)?.get(method),
  }
}

/** The operation catalogue of the delivery-URL language: every plugin, operation and param. */
export const CATALOGUE: Catalogue = createCatalogue(PLUGINS)
