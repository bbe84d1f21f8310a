import { describe, expect, it } from 'vitest'
import type { DynamicApp } from './api.ts'
import {
  AI_TOOLS_DEFAULT_PAGE,
  appListReducer,
  DEFAULT_PAGINATION,
  INITIAL_APP_LIST,
  parsePageParam,
  parseSearchParam,
} from './app-list.ts'

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
