import type { ProductReview } from '../../types/published.ts'
import type { CursorSigner } from '../endpoint/signed-cursor.ts'
import { type ProductSummaryView, variationIds } from '../view/product-group.ts'
import { buildDataSource, loadProductView, type ProductViewData } from '../view/product-view.ts'

/** The first page of a product's reviews as the review components show it from build data. */
export interface ProductFirstPage {
  /** The product's summary (the variations' combined); undefined when the API knows none of them. */
  summary: ProductSummaryView | undefined
  /** The newest reviews, at most `limit`. */
  reviews: ProductReview[]
  /**
   * The signed cursor of the next page, which the reviews endpoint and the client go on from with the
   * API; undefined when the page shows every review.
   */
  nextCursor: string | undefined
}

/**
 * The first page of the newest reviews of a product (or of a group's variations, merged), from data
 * already fetched: `source` gives summaries and reviews by id. The cursor is signed with `signer` for
 * the scope the reviews endpoint checks (the product ids, newest first, every rate, `limit`).
 */
export async function productFirstPage(
  productId: string | readonly string[],
  options: { limit: number; signer: CursorSigner },
  source: ProductViewData,
): Promise<ProductFirstPage> {
  const { summary, data, nextCursor } = await loadProductView({
    ...options,
    source: buildDataSource(source),
    ids: variationIds(productId),
    view: { sort: 'newest', rates: [] },
  })
  return { summary, reviews: data, nextCursor }
}
