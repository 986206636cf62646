import type { ReviewStore, SyncCheckpoint, SyncedReview } from '@verified-reviews/core/sync'
import type { LoaderContext } from 'astro/loaders'

/** Key of the sync mark (the sync checkpoint, as JSON) in the collection's `meta` store. */
export const SYNC_MARK_KEY = 'verified-reviews:sync'

/** What the adapter did to the collection's entries. */
export interface EntryWrites {
  /** Entries set because they were new or their digest changed. */
  written: number
  /** Entries left alone because their digest was unchanged. */
  unchanged: number
}

type Context = Pick<LoaderContext, 'store' | 'meta' | 'parseData' | 'generateDigest'>

/** Newest published first, ties by review id: the order `ReviewStore.list` promises. */
function newestFirst(a: SyncedReview, b: SyncedReview): number {
  if (a.publish_date !== b.publish_date) return a.publish_date < b.publish_date ? 1 : -1
  return a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
}

/**
 * A `ReviewStore` over an Astro collection: one entry per review (id `review_id`), and the sync
 * checkpoint in the collection's `meta` store, both persisted by Astro between builds. Entries whose
 * digest did not change are not set again. Nothing is ever cleared.
 */
export function astroReviewStore<R extends SyncedReview>(
  context: Context,
  groupOf: (review: R) => string,
): ReviewStore<R> & { writes: EntryWrites } {
  const { store, meta } = context
  const writes: EntryWrites = { written: 0, unchanged: 0 }
  let groups: Map<string, string[]> | undefined

  const dataOf = (id: string) => store.get(id)?.data as R | undefined
  const index = () => {
    if (groups === undefined) {
      const built = new Map<string, string[]>()
      for (const [id, entry] of store.entries()) {
        const key = groupOf(entry.data as R)
        // Pushed, not copied: a copy per entry costs the square of a product's reviews.
        const ids = built.get(key)
        if (ids === undefined) built.set(key, [id])
        else ids.push(id)
      }
      groups = built
    }
    return groups
  }

  return {
    writes,
    async get(reviewId) {
      return dataOf(reviewId)
    },
    async getMany(reviewIds) {
      return reviewIds.map(dataOf)
    },
    async has(reviewId) {
      return store.has(reviewId)
    },
    async putMany(reviews, checkpoint) {
      for (const review of reviews) {
        const digest = context.generateDigest(review as unknown as Record<string, unknown>)
        if (store.get(review.review_id)?.digest === digest) {
          writes.unchanged++
          continue
        }
        const data = await context.parseData({
          id: review.review_id,
          data: review as unknown as Record<string, unknown>,
        })
        store.set({ id: review.review_id, data, digest })
        writes.written++
        groups = undefined
      }
      if (checkpoint !== undefined) meta.set(SYNC_MARK_KEY, JSON.stringify(checkpoint))
    },
    async list(key) {
      const ids = index().get(key) ?? []
      return ids
        .map(dataOf)
        .filter((review): review is R => review !== undefined)
        .sort(newestFirst)
    },
    async keys() {
      return [...index().keys()].sort()
    },
    async all() {
      return store.values().map((entry) => entry.data as R)
    },
    async count() {
      return store.keys().length
    },
    async getCheckpoint() {
      const text = meta.get(SYNC_MARK_KEY)
      if (text === undefined) return undefined
      const checkpoint = JSON.parse(text) as SyncCheckpoint
      // A mark without the entries it counted (a store emptied by hand) would make the sync skip them.
      if (checkpoint.watermark !== undefined && store.keys().length === 0) return undefined
      return checkpoint
    },
    async setCheckpoint(checkpoint) {
      meta.set(SYNC_MARK_KEY, JSON.stringify(checkpoint))
    },
  }
}
