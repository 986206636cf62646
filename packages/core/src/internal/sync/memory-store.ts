import type { ProductReview } from '../../types/published.ts'
import { groupOf, newestFirst, type ReviewStore, type SyncCheckpoint, type SyncedReview } from './store.ts'

/** The state of a review store, which the JSON file store also writes to disk. */
export interface ReviewStoreState<R extends SyncedReview> {
  reviews: Map<string, R>
  checkpoint: SyncCheckpoint | undefined
}

/**
 * A {@link ReviewStore} over an in-memory state; `persist` (when given) is awaited after every change,
 * which is how the JSON file store writes through.
 */
export function reviewStoreOver<R extends SyncedReview>(
  load: () => Promise<ReviewStoreState<R>>,
  persist: (state: ReviewStoreState<R>) => Promise<void> = async () => {},
): ReviewStore<R> {
  let loaded: Promise<{ state: ReviewStoreState<R>; groups: Map<string, Set<string>> }> | undefined
  const open = () => {
    if (loaded === undefined) {
      const attempt = load().then((state) => {
        const groups = new Map<string, Set<string>>()
        for (const review of state.reviews.values()) addToGroup(groups, review)
        return { state, groups }
      })
      loaded = attempt
      // A load that failed (a file that could not be read) is tried again by the next call, not kept.
      attempt.catch(() => {
        if (loaded === attempt) loaded = undefined
      })
    }
    return loaded
  }

  return {
    async get(reviewId) {
      const { state } = await open()
      return copy(state.reviews.get(reviewId))
    },
    async getMany(reviewIds) {
      const { state } = await open()
      return reviewIds.map((id) => copy(state.reviews.get(id)))
    },
    async has(reviewId) {
      const { state } = await open()
      return state.reviews.has(reviewId)
    },
    async putMany(reviews, checkpoint) {
      const { state, groups } = await open()
      for (const review of reviews) {
        const held = state.reviews.get(review.review_id)
        if (held !== undefined) groups.get(groupOf(held))?.delete(held.review_id)
        const stored = structuredClone(review)
        state.reviews.set(review.review_id, stored)
        addToGroup(groups, stored)
      }
      if (checkpoint !== undefined) state.checkpoint = structuredClone(checkpoint)
      await persist(state)
    },
    async list(key) {
      const { state, groups } = await open()
      const ids = groups.get(key) ?? new Set()
      return [...ids].map((id) => structuredClone(state.reviews.get(id) as R)).sort(newestFirst)
    },
    async keys() {
      const { groups } = await open()
      return [...groups]
        .filter(([, ids]) => ids.size > 0)
        .map(([key]) => key)
        .sort()
    },
    async all() {
      const { state } = await open()
      return [...state.reviews.values()].map((review) => structuredClone(review))
    },
    async count() {
      const { state } = await open()
      return state.reviews.size
    },
    async getCheckpoint() {
      const { state } = await open()
      return copy(state.checkpoint)
    },
    async setCheckpoint(checkpoint) {
      const { state } = await open()
      state.checkpoint = structuredClone(checkpoint)
      await persist(state)
    },
  }
}

/**
 * A {@link ReviewStore} in memory: the embedded default, for one process and one run of the server.
 * Reviews read from it are copies, so changing one never changes the held review.
 */
export function createMemoryReviewStore<R extends SyncedReview = ProductReview>(): ReviewStore<R> {
  return reviewStoreOver<R>(async () => ({ reviews: new Map(), checkpoint: undefined }))
}

function addToGroup(groups: Map<string, Set<string>>, review: SyncedReview): void {
  const key = groupOf(review)
  let ids = groups.get(key)
  if (ids === undefined) {
    ids = new Set()
    groups.set(key, ids)
  }
  ids.add(review.review_id)
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value)
}
