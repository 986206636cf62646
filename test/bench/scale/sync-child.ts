/**
 * A child of the `sync` step: a full sync of the first `--reviews` reviews of the sandbox in the
 * environment into a memory store (or `--store <file>`, an SQLite store), then prints what it holds
 * and the memory it keeps after a full garbage collection (heap and buffers).
 */
import { parseArgs } from 'node:util'
import { createClient, type ProductReview } from '@verified-reviews/core'
import {
  createMemoryReviewStore,
  createSqliteReviewStore,
  type ReviewLister,
  type SyncPage,
  syncProductReviews,
} from '@verified-reviews/core/sync'

const { values } = parseArgs({ options: { reviews: { type: 'string' }, store: { type: 'string' } } })
const wanted = Number(values.reviews)
const client = createClient()

/** The client's review list, cut after the page that reaches `wanted` reviews. */
function capped(page: SyncPage<ProductReview>, seen: number): SyncPage<ProductReview> {
  const total = seen + page.data.length
  return {
    data: page.data,
    nextCursor: page.nextCursor,
    hasNextPage: () => total < wanted && page.hasNextPage(),
    // `then`, not an async function that would hold this page while the next one arrives.
    getNextPage: () => page.getNextPage().then((next) => capped(next, total)),
  }
}
const lister: ReviewLister<ProductReview> = {
  list: async (params, options) =>
    capped((await client.products.reviews.list(params, options)) as SyncPage<ProductReview>, 0),
}

const store = values.store === undefined ? createMemoryReviewStore() : createSqliteReviewStore(values.store)
const report = await syncProductReviews({ client: { products: { reviews: lister } }, store })
// What the store keeps once the sync is over: the heap and the buffers outside it, after a full collection
// (the step runs this child with --expose-gc).
;(globalThis as { gc?: () => void }).gc?.()
const { heapUsed, external } = process.memoryUsage()
console.log(JSON.stringify({ calls: report.calls, held: await store.count(), retained: heapUsed + external }))
