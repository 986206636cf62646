import type { ProductReview } from '@verified-reviews/core'
import { createMemoryReviewStore, type ReviewStore, type SyncCheckpoint } from '@verified-reviews/core/sync'
import type { LoaderContext } from 'astro/loaders'
import type { ProductReviewsEntry } from './schemas.ts'

/** Key of the sync mark (the core's sync checkpoint, as JSON) in the product reviews collection's `meta`. */
export const PRODUCT_SYNC_KEY = 'verified-reviews:product-sync'

type Context = Pick<LoaderContext, 'store' | 'meta' | 'parseData' | 'generateDigest'>

function isProductEntry(data: unknown): data is ProductReviewsEntry {
  return typeof data === 'object' && data !== null && 'rating' in data && 'reviews' in data
}

/** What the collection held when a run started. */
export interface HeldReviews {
  /** Its reviews and sync mark, in a memory store that the sync of this run goes on from. */
  store: ReviewStore<ProductReview>
  /** Its entries, by product id. */
  entries: Map<string, ProductReviewsEntry>
}

/**
 * The reviews of a product reviews collection (one entry per product), put in a memory store with the
 * sync mark of its `meta`, so that the core's sync and named fetches go on from them: one linear pass
 * over the entries, and the collection itself is written once, at the end of the run. Entries of another
 * shape (one per review, from an earlier version of this loader) clear the collection and its mark: the run starts over.
 */
export async function heldReviews(context: Context): Promise<HeldReviews> {
  const store = createMemoryReviewStore<ProductReview>()
  const entries = new Map<string, ProductReviewsEntry>()
  const values = context.store.values()
  if (values.some((entry) => !isProductEntry(entry.data))) {
    context.store.clear()
    context.meta.delete(PRODUCT_SYNC_KEY)
    return { store, entries }
  }
  const reviews: ProductReview[] = []
  for (const { id, data } of values) {
    const entry = data as unknown as ProductReviewsEntry
    entries.set(id, entry)
    for (const review of entry.reviews) reviews.push(review)
  }
  await store.putMany(reviews)
  const mark = context.meta.get(PRODUCT_SYNC_KEY)
  // A mark without the entries it counted (a collection emptied by hand) would make the sync skip them.
  if (mark !== undefined && values.length > 0) await store.setCheckpoint(JSON.parse(mark) as SyncCheckpoint)
  return { store, entries }
}

/**
 * Sets the entries whose digest changed (`parseData` runs the collection's schema on them), then the
 * sync mark, so that the mark never counts reviews the collection does not hold. Resolves to the
 * entries written.
 */
export async function writeProductEntries(
  context: Context,
  entries: readonly ProductReviewsEntry[],
  mark: SyncCheckpoint | undefined,
): Promise<number> {
  let written = 0
  for (const entry of entries) {
    const id = entry.product_variation_id
    const data = entry as unknown as Record<string, unknown>
    const digest = context.generateDigest(data)
    if (context.store.get(id)?.digest === digest) continue
    context.store.set({ id, data: await context.parseData({ id, data }), digest })
    written++
  }
  if (mark !== undefined) context.meta.set(PRODUCT_SYNC_KEY, JSON.stringify(mark))
  return written
}

/**
 * The mark of a first run that fetched the reviews of named products by their ids: what the core's
 * fetch of named products into a kept store records (the products held, the newest publish date as the
 * watermark), so that later runs ask for those products' reviews newest first, down to the first held.
 */
export function namedProductsMark(entries: readonly ProductReviewsEntry[]): SyncCheckpoint {
  const products: string[] = []
  let reviews = 0
  let watermark: string | undefined
  for (const entry of entries) {
    if (entry.reviews.length === 0) continue
    products.push(entry.product_variation_id)
    reviews += entry.reviews.length
    for (const review of entry.reviews) {
      if (watermark === undefined || review.publish_date > watermark) watermark = review.publish_date
    }
  }
  products.sort()
  return {
    phase: 'idle',
    limit: 200,
    newReviews: reviews,
    updatedReviews: 0,
    affected: products,
    completedAt: new Date().toISOString(),
    lastMode: 'full',
    products,
    ...(watermark === undefined ? {} : { watermark }),
  }
}
