import { describe, expect, it } from 'vitest'
import type { DynamicApp } from './api.ts'
import {
  AI_TOOLS_DEFAULT_PAGE,
  appListPage,
  appListReducer,
  DEFAULT_PAGINATION,
  featuredApps,
  INITIAL_APP_LIST,
  parsePageParam,
  parseSearchParam,
  uniqueBySlug,
} from './app-list.ts'
import { cmsImage } from './images.ts'
import { DEFAULT_RUNTIME_CONFIG } from './runtime-config.ts'

const app = (slug: string): DynamicApp => ({
  slug,
  config: { title: slug, description: '', thumbnailURL: '' },
})

describe('AI tools query parameters (SPEC §5)', () => {
  it('accepts a finite page number greater than 0', () => {
    expect(parsePageParam('3')).toBe(3)
  })

  it.each([null, '', '0', '-2', 'abc', 'Infinity', 'NaN'])(
    'uses the default page for %s',
    (raw) => {
      expect(parsePageParam(raw)).toBe(AI_TOOLS_DEFAULT_PAGE)
    },
  )

  it('trims q', () => {
    expect(parseSearchParam('  remover ')).toBe('remover')
    expect(parseSearchParam(null)).toBe('')
  })
})

describe('dynamic app list (SPEC §4, §8)', () => {
  const page2 = { currentPage: 2, pageSize: 12, hasNext: false, total: 14 }

  it('appends on load-more success without repeating a slug already listed', () => {
    const start = { ...INITIAL_APP_LIST, appList: [app('a'), app('b')] }
    const done = appListReducer(start, {
      type: 'load_more_succeeded',
      items: [app('b'), app('c')],
      pagination: page2,
    })
    expect(done.appList.map((a) => a.slug)).toEqual(['a', 'b', 'c'])
  })

  it('appends on load-more success', () => {
    const start = { ...INITIAL_APP_LIST, appList: [app('a')] }
    const loading = appListReducer(start, { type: 'load_more_requested' })
    expect(loading.loading.loadMore).toBe(true)
    const done = appListReducer(loading, {
      type: 'load_more_succeeded',
      items: [app('b')],
      pagination: page2,
    })
    expect(done.appList.map((a) => a.slug)).toEqual(['a', 'b'])
    expect(done.pagination).toEqual(page2)
    expect(done.loading.loadMore).toBe(false)
  })

  it('replaces the list on search success', () => {
    const start = { ...INITIAL_APP_LIST, appList: [app('a')] }
    const searching = appListReducer(start, { type: 'search_requested', query: 'b' })
    expect(searching.search).toEqual({ query: 'b', isSearching: true })
    const done = appListReducer(searching, {
      type: 'search_succeeded',
      items: [app('b')],
      pagination: page2,
    })
    expect(done.appList.map((a) => a.slug)).toEqual(['b'])
    expect(done.search.isSearching).toBe(false)
  })

  it('empties the list with default pagination when a search fails', () => {
    const start = { ...INITIAL_APP_LIST, appList: [app('a')], pagination: page2 }
    const failed = appListReducer(start, { type: 'search_failed' })
    expect(failed.appList).toEqual([])
    expect(failed.pagination).toEqual(DEFAULT_PAGINATION)
  })

  it('resets search and pagination to their defaults', () => {
    const start = {
      ...INITIAL_APP_LIST,
      search: { query: 'x', isSearching: false },
      pagination: page2,
    }
    const reset = appListReducer(start, { type: 'reset' })
    expect(reset.search).toEqual(INITIAL_APP_LIST.search)
    expect(reset.pagination).toEqual(DEFAULT_PAGINATION)
  })
})

describe('the first page merges the featured apps with the server results (SPEC §7.2)', () => {
  const featured = [app('f1'), app('shared'), app('f3')]

  it('leads with the featured apps and de-duplicates by slug', () => {
    const { items } = appListPage({
      featured,
      items: [app('shared'), app('s1'), app('s2')],
      itemTotal: 3,
      page: 1,
      pageSize: 12,
      query: '',
    })
    expect(items.map((a) => a.slug)).toEqual(['f1', 'shared', 'f3', 's1', 's2'])
  })

  it('leaves later pages to the server', () => {
    const { items } = appListPage({
      featured,
      items: [app('s13')],
      itemTotal: 13,
      page: 2,
      pageSize: 12,
      query: '',
    })
    expect(items.map((a) => a.slug)).toEqual(['s13'])
  })

  it.each([
    // featured + itemTotal > pageSize × page
    { itemTotal: 9, page: 1, hasNext: false }, // 3 + 9 = 12, not > 12
    { itemTotal: 10, page: 1, hasNext: true }, // 13 > 12
    { itemTotal: 21, page: 2, hasNext: false }, // 24, not > 24
    { itemTotal: 22, page: 2, hasNext: true },
  ])(
    'hasNext is $hasNext for itemTotal $itemTotal on page $page',
    ({ itemTotal, page, hasNext }) => {
      const { pagination } = appListPage({
        featured,
        items: [],
        itemTotal,
        page,
        pageSize: 12,
        query: '',
      })
      expect(pagination).toEqual({ currentPage: page, pageSize: 12, hasNext, total: itemTotal })
    },
  )

  it('keeps only the featured apps that match a search, and counts only those', () => {
    const named = (slug: string, title: string) => ({
      ...app(slug),
      config: { ...app(slug).config, title },
    })
    const { items, pagination } = appListPage({
      featured: [named('bg', 'Background Remover'), named('up', 'Image Upscaler')],
      items: [named('wm', 'Watermark Remover')],
      itemTotal: 11,
      page: 1,
      pageSize: 12,
      query: 'remover',
    })
    expect(items.map((a) => a.slug)).toEqual(['bg', 'wm'])
    expect(pagination.hasNext).toBe(false) // 1 + 11 = 12
  })

  it('features the sibling tools, linked to their configured pages', () => {
    const apps = featuredApps({
      ...DEFAULT_RUNTIME_CONFIG,
      siblingTools: { ...DEFAULT_RUNTIME_CONFIG.siblingTools, upscaler: 'https://up.example' },
    })
    expect(apps.map((a) => a.slug)).toEqual([
      'background-remover',
      'image-upscaler',
      'watermark-remover',
    ])
    expect(apps.every((a) => a.config.isFeatured === true)).toBe(true)
    expect(apps[1]?.config.url).toBe('https://up.example')
    // Delivery URLs the cards turn into a srcset, like the apps service's.
    expect(cmsImage(apps[0]?.config.thumbnailURL ?? '', 480).srcSet).toContain('w:960,h:640')
    expect(apps[0]?.config.thumbnailURL).toMatch(/^\/v2\/demo\/t\.resize\(w:480,h:320\)\/samples\//)
  })

  it('de-duplicates a list by slug, first one kept', () => {
    expect(uniqueBySlug([app('a')], [app('a'), app('b'), app('b')]).map((a) => a.slug)).toEqual([
      'a',
      'b',
    ])
  })
})
