import type { ReviewView } from '../view/review-query.ts'
import { listViewPage, type ViewParams } from '../view/view-page.ts'
import type { CursorScope, CursorSigner } from './signed-cursor.ts'

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
 * cursors of the answer are signed, ready for links and the "More reviews" island.
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
  signer: CursorSigner,
): Promise<SignedViewPage<Item>> {
  const full: CursorScope = { ...scope, sort: view.sort, rates: view.rates }
  const opened = await signer.open(full, view.cursor)
  const { page, cursor } = await listViewPage(list, { ...view, cursor: opened }, scope.limit)
  const [nextCursor, previousCursor] = await Promise.all([
    signer.sign(full, page.nextCursor),
    signer.sign(full, page.previousCursor),
  ])
  return {
    data: page.data,
    nextCursor,
    previousCursor,
    cursor: cursor === undefined ? undefined : view.cursor,
  }
}
