import type { ReviewRate } from '../../types/published.ts'
import { type ReviewView, type SortField, sortFields } from './review-query.ts'

/** The list parameters of a view, common to product and brand reviews. */
export interface ViewParams {
  limit: number
  sort: SortField[]
  desc?: SortField[]
  review_rate?: ReviewRate[]
  cursor?: string
}

function fieldOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { field?: unknown }).field : undefined
}

/**
 * The page of reviews `view` names, through `list` (product or brand reviews). A cursor the API or the
 * client refuses (expired, edited by hand, issued for another page size) falls back to the first page;
 * `cursor` is the cursor of the page given, undefined for a first page.
 */
export async function listViewPage<Page>(
  list: (params: ViewParams) => PromiseLike<Page>,
  view: ReviewView,
  limit: number,
): Promise<{ page: Page; cursor: string | undefined }> {
  const params: ViewParams = {
    limit,
    ...sortFields(view.sort),
    ...(view.rates.length > 0 ? { review_rate: [...view.rates] } : {}),
  }
  if (view.cursor === undefined) return { page: await list(params), cursor: undefined }
  try {
    return { page: await list({ ...params, cursor: view.cursor }), cursor: view.cursor }
  } catch (error) {
    if (fieldOf(error) !== 'cursor') throw error
    return { page: await list(params), cursor: undefined }
  }
}
