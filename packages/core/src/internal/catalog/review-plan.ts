import type { ProductSummary } from '../../types/published.ts'
import { chunks } from '../base/concurrency.ts'
import { MAX_VALUES } from '../context/query-string.ts'

/** Reviews per page of `products.reviews.list`. */
export const REVIEW_PAGE = 200

/**
 * How the catalog fetches reviews: the sync of every review of the account (`full`, or `incremental`
 * from a store a finished sync left), or the reviews of the products the build names (`named`), by
 * lists of up to 200 ids per call.
 */
export type ReviewsChoice = 'full' | 'incremental' | 'named'

/** The choice, and the calls each way was expected to cost. */
export interface ReviewsPlan {
  choice: ReviewsChoice
  /** Lists of ids to ask for together (`named` only): up to 200 products with reviews each. */
  batches: string[][]
  /**
   * Lists of up to 200 ids of the products whose reviews the store already holds (`named` only): each
   * is asked for newest first, down to the first review held, rather than in full.
   */
  heldBatches?: string[][]
  /** Expected calls of the named way; undefined when the build names no products. */
  namedCalls: number | undefined
  /**
   * Expected calls of the sync: 1 for an incremental sync (fewer than 200 new reviews), else
   * ceil(reviews of the account / 200); undefined when the account's review count is unknown (the
   * build named its products, so that only theirs were summarized).
   */
  syncCalls: number | undefined
}

/**
 * Chooses how to fetch reviews, from the review counts of the summaries. Without named products the
 * sync fetches them all. With named products: an incremental sync when one is possible and costs
 * fewer calls; else the named products' reviews, ceil(reviews / 200) per list of ids, unless the
 * summaries cover the whole account (`summarizedAll`) and the full sync costs no more, or the cost of
 * the full sync is unknown and the reviews go to a store kept between runs (`keptStore`): the full sync
 * then runs once, so that the runs after it are incremental. A store that holds named products'
 * reviews (`held`) makes the named way incremental too: the held products cost one call per 200 of
 * them (their reviews newest first, down to the first one held), and only the others are fetched in full.
 */
export function planReviews(input: {
  summaries: readonly ProductSummary[]
  /** The products the build names; undefined for every product of the account. */
  productIds: readonly string[] | undefined
  /** Whether the store holds a finished sync, so that the next one is incremental. */
  incremental: boolean
  /** Whether `summaries` are every product of the account (a walk of `products.list`). */
  summarizedAll: boolean
  /** Whether the reviews go to a store the caller keeps between runs, rather than a memory store of this run. */
  keptStore?: boolean | undefined
  /** The products whose reviews the kept store holds from named fetches; undefined when it holds none so. */
  held?: ReadonlySet<string> | undefined
}): ReviewsPlan {
  const { summaries, productIds, incremental } = input
  const fullCalls = input.summarizedAll
    ? Math.max(1, Math.ceil(totalReviews(summaries) / REVIEW_PAGE))
    : undefined
  const syncCalls = incremental ? 1 : fullCalls
  const sync = incremental ? 'incremental' : 'full'
  if (productIds === undefined) return { choice: sync, batches: [], namedCalls: undefined, syncCalls }
  const held = input.held ?? new Set<string>()
  const syncFirst = syncCalls === undefined && input.keptStore === true && held.size === 0
  const counts = new Map(summaries.map((summary) => [summary.product_variation_id, reviewCount(summary)]))
  const batches: string[][] = []
  const batchReviews: number[] = []
  for (const id of new Set(productIds)) {
    const reviews = counts.get(id) ?? 0
    // A product the API does not know, or one without reviews, needs no call; a held one, the walk below.
    if (reviews === 0 || held.has(id)) continue
    const last = batches.at(-1)
    if (last === undefined || last.length >= MAX_VALUES) {
      batches.push([id])
      batchReviews.push(reviews)
    } else {
      last.push(id)
      batchReviews[batchReviews.length - 1] = (batchReviews.at(-1) ?? 0) + reviews
    }
  }
  // Every held product, named this time or not, so that the store's watermark holds for all of them.
  const heldBatches = chunks([...held].sort(), MAX_VALUES)
  const namedCalls =
    heldBatches.length + batchReviews.reduce((sum, reviews) => sum + Math.ceil(reviews / REVIEW_PAGE), 0)
  const named: ReviewsPlan = { choice: 'named', batches, heldBatches, namedCalls, syncCalls }
  return syncFirst || (syncCalls !== undefined && syncCalls <= namedCalls)
    ? { choice: sync, batches: [], namedCalls, syncCalls }
    : named
}

/** The reviews a product summary counts. */
export function reviewCount(summary: ProductSummary | undefined): number {
  return summary?.ratings?.count_total ?? 0
}

/** The reviews the summaries count in all. */
export function totalReviews(summaries: readonly ProductSummary[]): number {
  let total = 0
  for (const summary of summaries) total += reviewCount(summary)
  return total
}
