import type { ReviewRate } from '../../types/published.ts'
import { membersOf } from '../base/validate.ts'
import { type ReviewView, type SortField, sortFields } from '../cursor/review-query.ts'
import type { CursorScope, CursorSigner } from '../cursor/signed-cursor.ts'

/** The list parameters of a view, common to product and brand reviews. */
export interface ViewParams {
  limit: number
  sort: SortField[]
  desc?: SortField[]
  review_rate?: ReviewRate[]
  cursor?: string
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
  const cursor = await signing.open(full, view.cursor)
  const params: ViewParams = {
    limit: scope.limit,
    ...sortFields(view.sort),
    ...(view.rates.length > 0 ? { review_rate: [...view.rates] } : {}),
  }
  let page: Awaited<ReturnType<typeof list>>
  let shown = cursor
  try {
    page = await list(cursor === undefined ? params : { ...params, cursor })
  } catch (error) {
    // A cursor the API or the client refuses (expired, issued for another page size): the first page.
    if (cursor === undefined || membersOf(error).field !== 'cursor') throw error
    page = await list(params)
    shown = undefined
  }
  const [nextCursor, previousCursor] = await Promise.all([
    signing.sign(full, page.nextCursor),
    signing.sign(full, page.previousCursor),
  ])
  return {
    data: page.data,
    nextCursor,
    previousCursor,
    cursor: shown === undefined ? undefined : view.cursor,
  }
}
