// The AI tools list (SPEC §3, §4, §5): query parameters and the list's state transitions.
import type { DynamicApp } from './api.ts'

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
        appList: [...state.appList, ...action.items],
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
