import type { Page } from '@verified-reviews/core'
import {
  listViewPage,
  otherParams,
  parseReviewView,
  type SearchParamsRecord,
  type ViewParams,
  viewQuery,
} from '@verified-reviews/core/view'

type SearchParams = URLSearchParams | SearchParamsRecord | undefined

/**
 * The page of reviews the search params name (`vr_cursor`, `vr_sort`, `vr_rate`), through `list`. When
 * the cursor is refused and the first page shown instead, `searchParams` are those of the page shown,
 * without that cursor.
 */
export async function viewPage<Item>(
  list: (params: ViewParams) => Promise<Page<Item>>,
  searchParams: SearchParams,
  limit: number,
): Promise<{ page: Page<Item>; searchParams: SearchParams }> {
  const view = parseReviewView(searchParams)
  const { page, cursor } = await listViewPage(list, view, limit)
  if (cursor === view.cursor) return { page, searchParams }
  return {
    page,
    searchParams: new URLSearchParams(viewQuery(otherParams(searchParams), { ...view, cursor })),
  }
}
