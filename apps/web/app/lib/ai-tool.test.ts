import { describe, expect, it } from 'vitest'
import {
  downloadName,
  isAiTool,
  isToolRunnable,
  originalUrl,
  sliderKey,
  toolOperations,
  toolRunUrl,
} from './ai-tool.ts'
import type { DynamicApp } from './api.ts'
import { appListReducer, featuredApps, INITIAL_APP_LIST } from './app-list.ts'
import { DEFAULT_RUNTIME_CONFIG } from './runtime-config.ts'

const tool = (transformation?: string): DynamicApp => ({
  slug: 'x',
  config: {
    title: 'X',
    description: 'x',
    thumbnailURL: '/x.png',
    ...(transformation === undefined ? {} : { transformation }),
  },
})

describe('AI tools: which run here', () => {
  it('is usable only when every operation of its transformation runs on this server', () => {
    expect(isToolRunnable(tool('ic.crop(w:600,h:600,g:object)'))).toBe(true)
    expect(isToolRunnable(tool('t.grey()~t.sharpen(s:1.5)'))).toBe(true)
    expect(isToolRunnable(tool('erase.bg(i:general)'))).toBe(true)
    expect(isToolRunnable(tool('generate.bg(p:beach)'))).toBe(false)
    expect(isToolRunnable(tool('erase.bg(i:human)~generate.bg(p:beach)'))).toBe(false)
    expect(isToolRunnable(tool('p:thumbnail'))).toBe(false)
    expect(isToolRunnable(tool())).toBe(false)
    expect(isToolRunnable(tool('not a (pattern'))).toBe(false)
  })

  it('knows AI (slow) tools, which visitors run signed', () => {
    expect(isAiTool(tool('ic.crop(w:10,h:10)'))).toBe(true)
    expect(isAiTool(tool('t.compress(q:70)'))).toBe(false)
    expect(toolOperations('t.grey()~t.sharpen(s:1.5)')).toEqual(['t.grey', 't.sharpen'])
  })

  it('gives the featured sibling tools their transformation, so the list can judge them', () => {
    for (const app of featuredApps(DEFAULT_RUNTIME_CONFIG)) {
      expect(toolOperations(app.config.transformation).length, app.slug).toBeGreaterThan(0)
    }
  })

  it('builds the run and original URLs', () => {
    const input = { deliveryBase: 'http://h/', cloudName: 'demo', filePath: 'samples/a.png' }
    expect(toolRunUrl({ ...input, transformation: 't.grey()' })).toBe(
      'http://h/v2/demo/t.grey()/samples/a.png',
    )
    expect(originalUrl(input)).toBe('http://h/v2/demo/original/samples/a.png')
    expect(downloadName('smart-crop', 'jpeg')).toBe('smart-crop-result.jpg')
    expect(downloadName('smart-crop', 'webp')).toBe('smart-crop-result.webp')
  })
})

describe('comparison slider keys', () => {
  it('moves by 1 with arrows, 10 with page keys, to the ends with Home and End', () => {
    expect(sliderKey(50, 'ArrowLeft')).toBe(49)
    expect(sliderKey(50, 'ArrowUp')).toBe(51)
    expect(sliderKey(50, 'PageUp')).toBe(60)
    expect(sliderKey(5, 'PageDown')).toBe(0)
    expect(sliderKey(99, 'ArrowRight')).toBe(100)
    expect(sliderKey(100, 'ArrowRight')).toBe(100)
    expect(sliderKey(40, 'Home')).toBe(0)
    expect(sliderKey(40, 'End')).toBe(100)
    expect(sliderKey(40, 'a')).toBeUndefined()
  })
})

describe('AI tools list loading states (SPEC §4)', () => {
  it('load-more: request sets loading, failure clears it and keeps the list', () => {
    const start = { ...INITIAL_APP_LIST, appList: [tool()] }
    const requested = appListReducer(start, { type: 'load_more_requested' })
    expect(requested.loading.loadMore).toBe(true)
    const failed = appListReducer(requested, { type: 'load_more_failed' })
    expect(failed.loading.loadMore).toBe(false)
    expect(failed.appList).toEqual([tool()])
  })

  it('search: request marks searching with the query', () => {
    const requested = appListReducer(INITIAL_APP_LIST, { type: 'search_requested', query: 'crop' })
    expect(requested.search).toEqual({ query: 'crop', isSearching: true })
  })
})
