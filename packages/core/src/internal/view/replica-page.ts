import type { ReviewView } from '../cursor/review-query.ts'
import type { CursorScope, CursorSigner } from '../cursor/signed-cursor.ts'
import { positionOf, queryByList, type ReviewStore, type SyncedReview } from '../sync/store.ts'
import { positionCursor, readPositionCursor } from './position-cursor.ts'
import { type SignedViewPage, signedViewPage } from './view-page.ts'

/**
 * The page of the reviews of `keys` that `view` names, from a replica's review store: no call. It is one
 * query of the store (through its index when it has `query`, else `queryByList`), and its cursors are
 * `positionCursor`s, which only a replica reads; a continuation cursor of a build's page goes on from
 * where that page ended, and any other cursor gives the first page. Product and brand views both read
 * their replica through it.
 */
export function replicaViewPage<R extends SyncedReview>(
  reviews: ReviewStore<R>,
  keys: readonly string[],
  view: ReviewView,
  scope: Pick<CursorScope, 'kind' | 'id' | 'limit'>,
  signer: CursorSigner | PromiseLike<CursorSigner>,
): Promise<SignedViewPage<R>> {
  return signedViewPage(
    async (params) => {
      const from = params.cursor === undefined ? undefined : readPositionCursor(params.cursor, view.sort)
      const query = { keys, order: view.sort, rates: view.rates, from, limit: params.limit }
      const page = await (reviews.query?.(query) ?? queryByList(reviews, query))
      const cursor = (direction: 'after' | 'before', review: R | undefined) =>
        review && positionCursor({ direction, position: positionOf(view.sort, review) })
      return {
        data: page.data,
        nextCursor: page.more ? cursor('after', page.data.at(-1)) : undefined,
        previousCursor: page.less ? cursor('before', page.data[0]) : undefined,
      }
    },
    view,
    scope,
    signer,
  )
}
