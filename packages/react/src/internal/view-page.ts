import type { Page, ReviewRate } from '@verified-reviews/core'
import {
  otherParams,
  parseReviewView,
  type SearchParamsRecord,
  type SortField,
  sortFields,
  viewQuery,
} from './review-query.ts'

/** The list parameters of a view, common to product and brand reviews. */
export interface ViewParams {
  limit: number
  sort: SortField[]
  desc?: SortField[]
  review_rate?: ReviewRate[]
  cursor?: string
}

type SearchParams = URLSearchParams | SearchParamsRecord | undefined

function fieldOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { field?: unknown }).field : undefined
}

/**
 * The page of reviews the search params name (`vr_cursor`, `vr_sort`, `vr_rate`), through `list`. A
 * cursor the API or the client refuses (expired, edited by hand, issued for another page size) falls
 * back to the first page; `searchParams` are then those of the page shown, without that cursor.
 */
export async function viewPage<Item>(
  list: (params: ViewParams) => Promise<Page<Item>>,
  searchParams: SearchParams,
  limit: number,
): Promise<{ page: Page<Item>; searchParams: SearchParams }> {
  const view = parseReviewView(searchParams)
  const params: ViewParams = {
    limit,
    ...sortFields(view.sort),
    ...(view.rates.length > 0 ? { review_rate: [...view.rates] } : {}),
  }
  if (view.cursor === undefined) return { page: await list(params), searchParams }
  try {
    return { page: await list({ ...params, cursor: view.cursor }), searchParams }
  } catch (error) {
    if (fieldOf(error) !== 'cursor') throw error
    const shown = new URLSearchParams(viewQuery(otherParams(searchParams), { ...view, cursor: undefined }))
    return { page: await list(params), searchParams: shown }
  }
}
