import { sameJson } from './same-json.ts'
import { groupOf, type ReviewStore, type SyncedReview } from './store.ts'

/** What the pages of one walk changed so far, added to by {@link changesOfPage}. */
export interface WalkTally {
  /** Reviews not held before. */
  newReviews: number
  /** Held reviews that came back different. */
  updatedReviews: number
  /** Products (or shops) whose new or updated reviews were met. */
  affected: Set<string>
  /** Newest `publish_date` met so far. */
  newest: string | undefined
}

/**
 * The reviews of a page that the store lacks or holds otherwise, counted in `tally`, as the spec's
 * recipe reads a page: with `stopAt` (the watermark of an incremental walk), the page ends at the first
 * held, unchanged review published at or before it (`reachedHeld`), where the held reviews begin.
 */
export async function changesOfPage<T extends SyncedReview>(
  reviews: readonly T[],
  store: ReviewStore<T>,
  stopAt: string | undefined,
  tally: WalkTally,
): Promise<{ changed: T[]; reachedHeld: boolean }> {
  const held = await store.getMany(reviews.map((review) => review.review_id))
  const changed: T[] = []
  for (const [i, review] of reviews.entries()) {
    const before = held[i]
    if (
      stopAt !== undefined &&
      before !== undefined &&
      review.publish_date <= stopAt &&
      sameJson(before, review)
    ) {
      return { changed, reachedHeld: true }
    }
    if (tally.newest === undefined || review.publish_date > tally.newest) tally.newest = review.publish_date
    if (before === undefined) {
      tally.newReviews++
    } else if (sameJson(before, review)) {
      continue
    } else {
      tally.updatedReviews++
      tally.affected.add(groupOf(before))
    }
    tally.affected.add(groupOf(review))
    changed.push(review)
  }
  return { changed, reachedHeld: false }
}
