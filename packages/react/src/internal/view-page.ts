import type { VerifiedReviewsClient } from '@verified-reviews/core'
import type { CursorSigner } from '@verified-reviews/core/endpoint'
import {
  otherParams,
  parseReviewView,
  type ReviewView,
  type SearchParamsRecord,
  viewQuery,
} from '@verified-reviews/core/internal'

type SearchParams = URLSearchParams | SearchParamsRecord | undefined

/**
 * The page the search params name (`vr_cursor`, `vr_sort`, `vr_rate`), through `load`, given the view
 * and the signer of `client` (the key the reviews endpoint checks). When `vr_cursor` is not taken (not
 * signed for this list and page size, or refused by the API), `searchParams` are those of the first
 * page shown instead. The endpoint entry is imported on demand, as the client is, so that no browser
 * bundle pulls it in.
 */
export async function viewPage<Page extends { cursor: string | undefined }>(
  client: VerifiedReviewsClient,
  searchParams: SearchParams,
  load: (view: ReviewView, signer: Promise<CursorSigner>) => Promise<Page>,
): Promise<{ page: Page; searchParams: SearchParams }> {
  const view = parseReviewView(searchParams)
  const page = await load(
    view,
    import('@verified-reviews/core/endpoint').then(({ cursorSigner }) => cursorSigner(client)),
  )
  if (page.cursor === view.cursor) return { page, searchParams }
  return {
    page,
    searchParams: new URLSearchParams(viewQuery(otherParams(searchParams), { ...view, cursor: page.cursor })),
  }
}
