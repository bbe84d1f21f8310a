import { describe, expect, it } from 'vitest'
import { createScriptLoader, type ScriptHost, ScriptLoadError, withQuery } from './script-loader.ts'

/** A document with just enough of <script> to load or fail on demand. */
function fakeHost() {
  const appended: FakeScript[] = []
  class FakeScript extends EventTarget {
    async = false
    src = ''
    removed = false
    remove() {
      this.removed = true
    }
  }
  const host = {
    createElement: () => new FakeScript() as unknown as HTMLScriptElement,
    head: {
      appendChild: (node: HTMLScriptElement) => appended.push(node as unknown as FakeScript),
    },
  } satisfies ScriptHost
  return { host, appended }
}

describe('the script loader', () => {
  it('appends one async script per address and shares its promise', async () => {
    const { host, appended } = fakeHost()
    const load = createScriptLoader(host)
    const first = load('https://a.test/x.js')
    const second = load('https://a.test/x.js')
    expect(second).toBe(first)
    expect(appended).toHaveLength(1)
    expect(appended[0]).toMatchObject({ async: true, src: 'https://a.test/x.js' })
    appended[0]?.dispatchEvent(new Event('load'))
    await expect(first).resolves.toBeUndefined()
  })

  it('rejects with ScriptLoadError, removes the element and tries again next time', async () => {
    const { host, appended } = fakeHost()
    const load = createScriptLoader(host)
    const failing = load('https://a.test/blocked.js')
    appended[0]?.dispatchEvent(new Event('error'))
    await expect(failing).rejects.toBeInstanceOf(ScriptLoadError)
    await expect(failing).rejects.toThrow('Failed to load the script https://a.test/blocked.js')
    expect(appended[0]?.removed).toBe(true)
    void load('https://a.test/blocked.js').catch(() => undefined)
    expect(appended).toHaveLength(2)
  })
})

describe('withQuery', () => {
  it('adds parameters to an address', () => {
    expect(withQuery('https://a.test/gtm.js?x=1', { id: 'GTM-1' })).toBe(
      'https://a.test/gtm.js?x=1&id=GTM-1',
    )
  })

  it('keeps an address that does not parse', () => {
    expect(withQuery('/relative.js', { id: '1' })).toBe('/relative.js')
  })
})
