import type { ReviewRate } from '../../types/published.ts'
import type { CursorScope, CursorSigner } from '../endpoint/signed-cursor.ts'
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

/** A page of reviews as a page URL shows it: its cursors signed. */
export interface SignedViewPage<Item> {
  data: Item[]
  /** The signed cursor of the next page, when there is one. */
  nextCursor: string | undefined
  /** The signed cursor of the previous page, when there is one. */
  previousCursor: string | undefined
  /** The signed cursor of the page shown (`vr_cursor` as the page URL had it); undefined for a first page. */
  cursor: string | undefined
}

/**
 * The page of reviews `view` names (`vr_cursor`, `vr_sort`, `vr_rate` of a page URL), for a component
 * rendered on the server: `view.cursor` must be a cursor `signer` signed for this list (`scope` with the
 * view's order and rates), else the first page is shown, as it is for a cursor the API refuses. The
 * cursors of the answer are signed, ready for links and the "More reviews" island. `signer` may come
 * later than the view (an entry imported on demand).
 *
 * @param scope Whose reviews and the page size; the order and the rates are the view's.
 */
export async function signedViewPage<Item>(
  list: (params: ViewParams) => PromiseLike<{
    data: Item[]
    nextCursor?: string | undefined
    previousCursor?: string | undefined
  }>,
  view: ReviewView,
  scope: Pick<CursorScope, 'kind' | 'id' | 'limit'>,
  signer: CursorSigner | PromiseLike<CursorSigner>,
): Promise<SignedViewPage<Item>> {
  const full: CursorScope = { ...scope, sort: view.sort, rates: view.rates }
  const signing = await signer
  const opened = await signing.open(full, view.cursor)
  const { page, cursor } = await listViewPage(list, { ...view, cursor: opened }, scope.limit)
  const [nextCursor, previousCursor] = await Promise.all([
    signing.sign(full, page.nextCursor),
    signing.sign(full, page.previousCursor),
  ])
  return {
    data: page.data,
    nextCursor,
    previousCursor,
    cursor: cursor === undefined ? undefined : view.cursor,
  }
}
