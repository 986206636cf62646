import type { ProductReviewListParams } from '../../resources/products.ts'
import type { ProductReview } from '../../types/published.ts'
import type { SyncPage } from '../sync/engine.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { observePages } from '../sync/observed-pages.ts'
import type { ReviewStore } from '../sync/store.ts'
import { type ProductReviewsSyncReport, syncProductReviews } from '../sync/sync-reviews.ts'
import { REVIEW_PAGE, type ReviewsPlan } from './plan.ts'

/** What fetching reviews needs of a client: `createClient()` satisfies it. */
export interface ReviewPagesClient {
  products: {
    reviews: {
      list(params: ProductReviewListParams, options?: { cache: false }): PromiseLike<SyncPage<ProductReview>>
    }
  }
}

/** Reviews fetched for a build, and how. */
export interface FetchedReviews {
  /** Where they are: the sync's store, or a memory store of the named products' reviews. */
  store: ReviewStore<ProductReview>
  /** `products.reviews.list` pages fetched. */
  calls: number
  /** Reviews the pages carried. */
  received: number
  /** The sync's report; undefined for named products. */
  sync: ProductReviewsSyncReport | undefined
}

/**
 * Fetches reviews the way `plan` chose: the sync into `store` (full or incremental), or the reviews of
 * the named products into a memory store, newest first, 200 per page, a list of ids per walk. `onPage`
 * is told the reviews and pages so far.
 */
export async function fetchReviews(options: {
  client: ReviewPagesClient
  plan: ReviewsPlan
  store: ReviewStore<ProductReview>
  /** How the sync walks: `full` walks every review again; `limit` reviews per page. */
  sync?: { mode?: 'auto' | 'full' | undefined; limit?: number | undefined } | undefined
  signal?: AbortSignal | undefined
  onPage?: (reviews: number, calls: number) => void
}): Promise<FetchedReviews> {
  let calls = 0
  let received = 0
  const { list } = observePages(options.client.products.reviews, (page) => {
    calls++
    received += page.data.length
    options.onPage?.(received, calls)
  })

  if (options.plan.choice !== 'named') {
    const sync = await syncProductReviews({
      client: { products: { reviews: { list } } },
      store: options.store,
      ...(options.sync?.mode === undefined ? {} : { mode: options.sync.mode }),
      ...(options.sync?.limit === undefined ? {} : { limit: options.sync.limit }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    return { store: options.store, calls, received, sync }
  }
  const store = createMemoryReviewStore<ProductReview>()
  for (const ids of options.plan.batches) {
    options.signal?.throwIfAborted()
    // Past the client's cache, as the sync's pages: a bulk fetch would fill it with every page it walks.
    let page = await list(
      { product_variation_id: ids, limit: REVIEW_PAGE, sort: ['publish_date'], desc: ['publish_date'] },
      { cache: false },
    )
    for (;;) {
      await store.putMany(page.data)
      if (!page.hasNextPage()) break
      options.signal?.throwIfAborted()
      page = await page.getNextPage()
    }
  }
  return { store, calls, received, sync: undefined }
}
