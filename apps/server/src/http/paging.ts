// Paging of list answers, the same in every API (SPEC §7.2): `pageNo` from 1 and `pageSize` up
// to 100 in the query, and a `page` object in the answer that clients loop on while `hasNext`.
import { wholeNumber } from './query.ts'

export const MAX_PAGE_SIZE = 100
export const MAX_PAGE_NO = 100_000

/** The `page` object of paged answers. */
export interface Page {
  current: number
  size: number
  hasNext: boolean
  itemTotal: number
  type: 'number'
}

/** The `page` object of page `current` of `size` items, out of `itemTotal`. */
export function pageOf(current: number, size: number, itemTotal: number): Page {
  return {
    current,
    size,
    hasNext: current * size < itemTotal,
    itemTotal,
    type: 'number',
  }
}

/** The `pageNo` and `pageSize` fields of a query schema, with the list's default page size. */
export function pageQuery(defaultSize: number) {
  return {
    pageNo: wholeNumber(1, MAX_PAGE_NO).default(1).describe('Page to answer, from 1 (default 1)'),
    pageSize: wholeNumber(1, MAX_PAGE_SIZE)
      .default(defaultSize)
      .describe(`Items per page (default ${defaultSize})`),
  }
}

/** How many items come before the page a query asks for. */
export function offsetOf(query: { pageNo: number; pageSize: number }): number {
  return (query.pageNo - 1) * query.pageSize
}
