import type { ProductReviewListParams } from '../../types/params.ts'
import type { Language, ProductReview } from '../../types/published.ts'
import type { SyncPage } from '../sync/engine.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { observePages } from '../sync/observed-pages.ts'
import { askAhead } from '../sync/page-ahead.ts'
import { changesOfPage, type WalkTally } from '../sync/page-changes.ts'
import type { ReviewStore, SyncCheckpoint } from '../sync/store.ts'
import { type ProductReviewsSyncReport, productWalk, syncProductReviews } from '../sync/sync-reviews.ts'
import { REVIEW_PAGE, type ReviewsPlan } from './review-plan.ts'

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
  /** Reviews the store did not hold (all those received, for a memory store). */
  newReviews: number
  /** The sync's report; undefined for named products. */
  sync: ProductReviewsSyncReport | undefined
}

/**
 * Fetches reviews the way `plan` chose: the sync into `store` (full or incremental), or the reviews of
 * the named products, newest first, 200 per page, a list of ids per walk: into `store` when
 * `namedIntoStore` (a store kept between runs that holds no sync of the account), where the checkpoint
 * records the products held, else into a memory store. `onPage` is told the reviews and pages so far.
 */
export async function fetchReviews(options: {
  client: ReviewPagesClient
  plan: ReviewsPlan
  store: ReviewStore<ProductReview>
  /** How the sync walks: `full` walks every review again; `limit` reviews per page. */
  sync?: { mode?: 'auto' | 'full' | undefined; limit?: number | undefined } | undefined
  signal?: AbortSignal | undefined
  onPage?: (reviews: number, calls: number) => void
  /** Whether named products' reviews go to `store` (kept between runs, holding no sync of the account). */
  namedIntoStore?: boolean | undefined
  /** The site's languages: the reviews are stored as `keptReview` trims them (whole when undefined). */
  replicaLanguages?: readonly Language[] | undefined
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
      mode: options.sync?.mode,
      limit: options.sync?.limit,
      signal: options.signal,
      replicaLanguages: options.replicaLanguages,
    })
    return { store: options.store, calls, received, newReviews: sync.newReviews, sync }
  }
  const kept = options.namedIntoStore === true
  const store = kept ? options.store : createMemoryReviewStore<ProductReview>()
  const newReviews = await fetchNamed(list, options.plan, store, kept, options)
  // Into a memory store of this run, every review received is new.
  return { store, calls, received, newReviews: kept ? newReviews : received, sync: undefined }
}

/**
 * The named products' reviews into `store`, newest first, 200 per page, a list of ids per walk. Into a
 * store `kept` between runs, on the spec's recipe: the products it holds newest first, each list of ids
 * down to the first held, unchanged review published at or before the watermark; the others in full.
 * The checkpoint, saved last, adds the products fetched to those held, so that an interrupted run
 * fetches them again. Resolves to the reviews the store did not hold.
 */
async function fetchNamed(
  list: ReviewPagesClient['products']['reviews']['list'],
  plan: ReviewsPlan,
  store: ReviewStore<ProductReview>,
  kept: boolean,
  options: { signal?: AbortSignal | undefined; replicaLanguages?: readonly Language[] | undefined },
): Promise<number> {
  const { keep } = productWalk(options.replicaLanguages)
  const saved = await store.getCheckpoint()
  const watermark = saved?.products === undefined ? undefined : saved.watermark
  const tally: WalkTally = { newReviews: 0, updatedReviews: 0, affected: new Set(), newest: watermark }
  // A held list stops at the first held review; a new one is walked to its end.
  const walk = async (ids: string[], stopAt: string | undefined) => {
    options.signal?.throwIfAborted()
    let page = await list(
      { product_variation_id: ids, limit: REVIEW_PAGE, sort: ['publish_date'], desc: ['publish_date'] },
      { cache: false },
    )
    for (;;) {
      // A new list is read to its end: its next page is asked for now, and travels while this one is
      // stored. A held list may stop on this page, and asks for the next only once it knows. Not once
      // aborted: the page in hand is still stored, and the walk stops after it.
      const ahead =
        stopAt === undefined && page.hasNextPage() && options.signal?.aborted !== true
          ? await askAhead(() => page.getNextPage())
          : undefined
      // Compared and stored in the sync's form, so that the sync goes on from these reviews.
      const reviews = keep === undefined ? page.data : page.data.map(keep.review)
      const { changed, reachedHeld } = await changesOfPage(reviews, store, stopAt, tally)
      await store.putMany(changed)
      if (reachedHeld || !page.hasNextPage()) return
      options.signal?.throwIfAborted()
      page = await (ahead?.next ?? page.getNextPage())
    }
  }
  const heldBatches = plan.heldBatches ?? []
  for (const ids of heldBatches) await walk(ids, watermark)
  for (const ids of plan.batches) await walk(ids, undefined)
  if (!kept) return tally.newReviews
  const products = new Set([...(saved?.products ?? []), ...plan.batches.flat()])
  const done: SyncCheckpoint = {
    phase: 'idle',
    limit: REVIEW_PAGE,
    newReviews: tally.newReviews,
    updatedReviews: tally.updatedReviews,
    affected: [...tally.affected].sort(),
    completedAt: new Date().toISOString(),
    lastMode: heldBatches.length > 0 ? 'incremental' : 'full',
    products: [...products].sort(),
  }
  if (keep !== undefined) done.kept = keep.form
  if (tally.newest !== undefined) done.watermark = tally.newest
  if (saved?.sweep !== undefined) done.sweep = saved.sweep
  await store.setCheckpoint(done)
  return tally.newReviews
}
