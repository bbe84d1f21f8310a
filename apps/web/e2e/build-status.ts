// The web build the browser suites run against is made while the other tests run
// (build.setup.ts); this is how a suite waits for it.
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'

export type WebBuildStatus =
  | { state: 'building' }
  | { state: 'built' }
  | { state: 'failed'; output: string }

declare module 'vitest' {
  export interface ProvidedContext {
    /** The status file of the build started by build.setup.ts. */
    webBuildStatus: string
  }
}

/** Where the status of this run's build is kept; none outside a Vitest run of this project. */
function statusFile(): string | undefined {
  try {
    return inject('webBuildStatus')
  } catch {
    // Outside Vitest (the screenshot scripts build first): nothing to wait for.
    return undefined
  }
}

/**
 * Resolves when this run's web build is there; throws the build's output when it failed. Outside
 * a Vitest run of the browser project it resolves at once.
 */
export async function webBuilt(): Promise<void> {
  const file = statusFile()
  if (file === undefined) return
  for (;;) {
    const status = JSON.parse(await readFile(file, 'utf8')) as WebBuildStatus
    if (status.state === 'built') return
    if (status.state === 'failed') throw new Error(status.output)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
