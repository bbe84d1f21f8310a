import { describe, expect, it } from 'vitest'
import { aiRunOf, MAX_REMEMBERED_RUNS, readRuns, rememberRun } from './ai-run.ts'
import type { ChainItem, ImageSource } from './playground-state.ts'

const source: ImageSource = {
  baseUrl: 'https://cdn.example',
  cloudName: 'acme',
  filePath: 'a.png',
  query: '',
  format: 'png',
}
const op = (plugin: string, method: string, values: Record<string, string> = {}): ChainItem => ({
  plugin,
  method,
  displayName: `${plugin}.${method}`,
  values,
  isPreset: false,
})

describe('the AI prefix of a chain', () => {
  it('is null without an AI step', () => {
    expect(aiRunOf(source, [op('t', 'resize', { w: '100' })])).toBeNull()
    expect(aiRunOf(null, [op('erase', 'bg')])).toBeNull()
  })

  it('stops at the last AI step, so editing a later step keeps the same run', () => {
    const chain = (width: string) => [op('erase', 'bg'), op('t', 'resize', { w: width })]
    const a = aiRunOf(source, chain('3'))
    const b = aiRunOf(source, chain('321'))
    expect(a).toEqual({
      url: 'https://cdn.example/v2/acme/erase.bg()/a.png',
      steps: ['erase.bg'],
      credits: 1,
    })
    expect(b?.url).toBe(a?.url)
    // Changing the AI step (or a step before it) is a new run.
    expect(aiRunOf(source, [op('t', 'flip'), ...chain('3')])?.url).not.toBe(a?.url)
  })

  it('counts every AI operation before the cut, presets included', () => {
    const preset: ChainItem = {
      plugin: 'p',
      method: 'cut',
      displayName: 'cut',
      values: {},
      isPreset: true,
      presetName: 'cut',
      transformation: 'erase.bg()~t.grey()',
    }
    const run = aiRunOf(source, [op('erase', 'bg'), preset, op('t', 'flip')])
    expect(run?.credits).toBe(2)
    expect(run?.steps).toEqual(['erase.bg', 'cut'])
  })
})

describe('remembered runs', () => {
  it('reads what it wrote, bounded, and survives bad storage', () => {
    const store = new Map<string, string>()
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    }
    let runs: string[] = []
    for (let i = 0; i < MAX_REMEMBERED_RUNS + 5; i++) runs = rememberRun(runs, `u${i}`, storage)
    expect(runs).toHaveLength(MAX_REMEMBERED_RUNS)
    expect(readRuns(storage)).toEqual(runs)
    expect(readRuns({ getItem: () => '{not json' })).toEqual([])
    expect(readRuns(undefined)).toEqual([])
    const refusing = {
      setItem: () => {
        throw new Error('quota')
      },
    }
    expect(rememberRun([], 'x', refusing)).toEqual(['x'])
  })
})
