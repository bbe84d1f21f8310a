// The AI tools list (SPEC §3, §4, §5, §7.2): query parameters, the first page's merge of the
// featured apps with the server's, and the list's state transitions.
import type { DynamicApp } from './api.ts'
import { joinUrl, type RuntimeConfig } from './runtime-config.ts'

export const AI_TOOLS_DEFAULT_PAGE = 1
export const AI_TOOLS_PAGE_SIZE = 12

/** `page` must be a finite number greater than 0, otherwise the default page is used. */
export function parsePageParam(raw: string | null): number {
  const page = Number(raw)
  return raw !== null && raw.trim() !== '' && Number.isFinite(page) && page > 0
    ? Math.floor(page) || AI_TOOLS_DEFAULT_PAGE
    : AI_TOOLS_DEFAULT_PAGE
}

/** `q` is trimmed. */
export function parseSearchParam(raw: string | null): string {
  return (raw ?? '').trim()
}

/**
 * The apps the website features itself, first on the first page: the sibling tools (SPEC §1),
 * whatever the apps service lists.
 */
export function featuredApps(config: Pick<RuntimeConfig, 'deliveryUrl' | 'siblingTools'>) {
  // The shape the apps service answers, so the cards make their srcset from it alike.
  const thumbnail = (file: string) =>
    joinUrl(config.deliveryUrl, `/v2/demo/t.resize(w:480,h:320)/samples/${file}`)
  const app = (
    slug: string,
    title: string,
    description: string,
    file: string,
    url: string,
    transformation: string,
  ) => ({
    slug,
    tags: ['ai-tools'],
    config: {
      title,
      description,
      thumbnailURL: thumbnail(file),
      isFeatured: true,
      url,
      transformation,
    },
  })
  const tools = config.siblingTools
  return [
    app(
      'background-remover',
      'Background Remover',
      'Remove the background of any photo in seconds: products, people, cars and pets.',
      'coffee.png',
      tools.backgroundRemover,
      'erase.bg(i:general)',
    ),
    app(
      'image-upscaler',
      'Image Upscaler',
      'Enlarge images two, four or eight times while keeping edges and faces sharp.',
      'astronaut.png',
      tools.upscaler,
      'sr.upscale(t:2x)',
    ),
    app(
      'watermark-remover',
      'Watermark Remover',
      'Remove text and logo watermarks from images you own the rights to.',
      'astronaut-wm.png',
      tools.watermarkRemover,
      'wm.remove(rem_text:true,rem_logo:true)',
    ),
  ] satisfies DynamicApp[]
}

/** A featured app is shown for a search only when its title or description holds the text. */
export function matchesSearch(app: DynamicApp, query: string): boolean {
  const needle = query.trim().toLowerCase()
  if (needle === '') return true
  return `${app.config.title} ${app.config.description}`.toLowerCase().includes(needle)
}

/** `list` followed by the apps of `more` whose slug it does not hold yet. */
export function uniqueBySlug(list: DynamicApp[], more: DynamicApp[]): DynamicApp[] {
  const seen = new Set(list.map((app) => app.slug))
  const merged = [...list]
  for (const app of more) {
    if (seen.has(app.slug)) continue
    seen.add(app.slug)
    merged.push(app)
  }
  return merged
}

/**
 * One page of the list (SPEC §7.2): the first page is the featured apps followed by the server's
 * results, de-duplicated by slug; later pages are the server's. There is a next page when the
 * featured count plus the server's itemTotal is greater than pageSize × page.
 */
export function appListPage(input: {
  featured: DynamicApp[]
  items: DynamicApp[]
  itemTotal: number
  page: number
  pageSize: number
  query: string
}): { items: DynamicApp[]; pagination: Pagination } {
  const featured = input.featured.filter((app) => matchesSearch(app, input.query))
  const items = input.page === 1 ? uniqueBySlug(featured, input.items) : input.items
  return {
    items,
    pagination: {
      currentPage: input.page,
      pageSize: input.pageSize,
      hasNext: featured.length + input.itemTotal > input.pageSize * input.page,
      total: input.itemTotal,
    },
  }
}

export interface Pagination {
  currentPage: number
  pageSize: number
  hasNext: boolean
  total: number
}

export interface AppListState {
  appList: DynamicApp[]
  pagination: Pagination
  search: { query: string; isSearching: boolean }
  loading: { initial: boolean; loadMore: boolean }
}

export const DEFAULT_PAGINATION: Pagination = {
  currentPage: AI_TOOLS_DEFAULT_PAGE,
  pageSize: AI_TOOLS_PAGE_SIZE,
  hasNext: false,
  total: 0,
}

export const INITIAL_APP_LIST: AppListState = {
  appList: [],
  pagination: DEFAULT_PAGINATION,
  search: { query: '', isSearching: false },
  loading: { initial: false, loadMore: false },
}

export type AppListAction =
  | { type: 'load_more_requested' }
  | { type: 'load_more_succeeded'; items: DynamicApp[]; pagination: Pagination }
  | { type: 'load_more_failed' }
  | { type: 'search_requested'; query: string }
  | { type: 'search_succeeded'; items: DynamicApp[]; pagination: Pagination }
  | { type: 'search_failed' }
  | { type: 'reset' }

export function appListReducer(state: AppListState, action: AppListAction): AppListState {
  switch (action.type) {
    case 'load_more_requested':
      return { ...state, loading: { ...state.loading, loadMore: true } }
    case 'load_more_succeeded':
      return {
        ...state,
        appList: uniqueBySlug(state.appList, action.items),
        pagination: action.pagination,
        loading: { ...state.loading, loadMore: false },
      }
    case 'load_more_failed':
      return { ...state, loading: { ...state.loading, loadMore: false } }
    case 'search_requested':
      return { ...state, search: { query: action.query, isSearching: true } }
    case 'search_succeeded':
      return {
        ...state,
        appList: action.items,
        pagination: action.pagination,
        search: { ...state.search, isSearching: false },
      }
    case 'search_failed':
      // SPEC §8: a failed list is empty, with the default pagination.
      return {
        ...state,
        appList: [],
        pagination: DEFAULT_PAGINATION,
        search: { ...state.search, isSearching: false },
      }
    case 'reset':
      return { ...state, search: INITIAL_APP_LIST.search, pagination: DEFAULT_PAGINATION }
  }
}
