import type { VerifiedReviewsClient } from '@verified-reviews/core'
import type { CursorScope, SignedViewPage } from '@verified-reviews/core/endpoint'
import {
  otherParams,
  parseReviewView,
  type SearchParamsRecord,
  type ViewParams,
  viewQuery,
} from '@verified-reviews/core/view'

type SearchParams = URLSearchParams | SearchParamsRecord | undefined

/**
 * The page of reviews the search params name (`vr_cursor`, `vr_sort`, `vr_rate`), through `list`, with
 * its cursors signed by the key of `client` (the one the reviews endpoint checks). `vr_cursor` is taken
 * only when that key signed it for this list and page size; when it is not, or the API refuses it, the
 * first page is shown instead and `searchParams` are those of the page shown, without that cursor.
 * The endpoint entry is imported on demand, as the client is, so that no browser bundle pulls it in.
 */
export async function viewPage<Item>(
  client: VerifiedReviewsClient,
  list: (params: ViewParams) => PromiseLike<{
    data: Item[]
    nextCursor?: string | undefined
    previousCursor?: string | undefined
  }>,
  searchParams: SearchParams,
  scope: Pick<CursorScope, 'kind' | 'id' | 'limit'>,
): Promise<{ page: SignedViewPage<Item>; searchParams: SearchParams }> {
  const { cursorSigner, signedViewPage } = await import('@verified-reviews/core/endpoint')
  const view = parseReviewView(searchParams)
  const page = await signedViewPage(list, view, scope, cursorSigner(client))
  if (page.cursor === view.cursor) return { page, searchParams }
  return {
    page,
    searchParams: new URLSearchParams(viewQuery(otherParams(searchParams), { ...view, cursor: page.cursor })),
  }
}
