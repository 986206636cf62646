import type { ProductReview, ProductSummary } from '../../types/published.ts'
import { continuationCursor } from '../endpoint/continuation.ts'
import type { CursorSigner } from '../endpoint/signed-cursor.ts'
import {
  combineProductSummaries,
  newestFirst,
  type ProductSummaryView,
  variationIds,
} from '../view/product-group.ts'

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
  source: {
    summaries(productIds: readonly string[]): Promise<Map<string, ProductSummary>>
    reviews(productId: string): Promise<ProductReview[]>
  },
): Promise<ProductFirstPage> {
  const ids = variationIds(productId)
  const [summaries, lists] = await Promise.all([
    source.summaries(ids),
    Promise.all(ids.map((id) => source.reviews(id))),
  ])
  const all = newestFirst(lists)
  const reviews = all.slice(0, options.limit)
  const nextCursor =
    all.length > options.limit
      ? await options.signer.sign(
          { kind: 'product', id: ids.join(','), sort: 'newest', rates: [], limit: options.limit },
          continuationCursor(reviews),
        )
      : undefined
  return { summary: combineProductSummaries(ids.map((id) => summaries.get(id))), reviews, nextCursor }
}
