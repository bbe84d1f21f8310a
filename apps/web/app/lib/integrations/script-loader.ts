// Loads a third-party script once per address. Each integration waits on its promise; a failed
// load is logged by the caller and the flow falls back (SPEC §8).

/** The part of `document` the loader uses (a small fake in unit tests). */
export interface ScriptHost {
  createElement(tag: 'script'): HTMLScriptElement
  head: { appendChild(node: HTMLScriptElement): unknown }
}

/** A script that did not load (network error, 404, blocked by an extension or a policy). */
export class ScriptLoadError extends Error {
  readonly src: string
  constructor(src: string) {
    super(`Failed to load the script ${src}`)
    this.name = 'ScriptLoadError'
    this.src = src
  }
}

export type ScriptLoader = (src: string) => Promise<void>

/**
 * A loader that appends one `<script async>` per address and shares its promise; a failed address
 * is forgotten (its element removed), so a later call tries again.
 */
export function createScriptLoader(host: ScriptHost): ScriptLoader {
  const pending = new Map<string, Promise<void>>()
  return (src) => {
    const known = pending.get(src)
    if (known !== undefined) return known
    const loading = new Promise<void>((resolve, reject) => {
      const script = host.createElement('script')
      script.async = true
      script.src = src
      script.addEventListener('load', () => resolve())
      script.addEventListener('error', () => {
        pending.delete(src)
        script.remove()
        reject(new ScriptLoadError(src))
      })
      host.head.appendChild(script)
    })
    pending.set(src, loading)
    return loading
  }
}

let browserLoader: ScriptLoader | undefined

/** The page's loader (one per page, so two integrations never load the same script twice). */
export function loadScript(src: string): Promise<void> {
  browserLoader ??= createScriptLoader(document)
  return browserLoader(src)
}

/** `url` with the query parameters added (kept as given when it does not parse). */
export function withQuery(url: string, params: Record<string, string>): string {
  try {
    const parsed = new URL(url)
    for (const [key, value] of Object.entries(params)) parsed.searchParams.set(key, value)
    return parsed.href
  } catch {
    return url
  }
}
