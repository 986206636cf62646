import type { ProductReview } from '../../types/published.ts'
import { groupOf, type ReviewStore, type SyncCheckpoint, type SyncedReview } from './store.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Size of one slab of {@link Slabs}. */
const SLAB_BYTES = 1 << 20

/**
 * Where the memory store writes the UTF-8 JSON of its reviews: slabs of 1 MiB, each review a view of
 * the slab it was written in. One buffer for some 300 reviews instead of one each: a buffer has a cost
 * of its own (its allocation, its tracking by the garbage collector, the allocator's fragmentation),
 * which at 100,000 reviews came to more than the reviews' bytes. A review longer than a quarter of a
 * slab gets a buffer of its own. `written` counts every byte written since the slabs were made, so that
 * the store knows how much of them replaced reviews leave unused.
 */
export class Slabs {
  #slab = new Uint8Array(0)
  #used = 0
  written = 0

  encode(review: SyncedReview): Uint8Array {
    const json = JSON.stringify(review)
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (json.length * 3 > SLAB_BYTES / 4) return this.#count(encoder.encode(json))
    if (this.#slab.length - this.#used < json.length * 3) this.#next()
    const { written } = encoder.encodeInto(json, this.#slab.subarray(this.#used))
    return this.#take(written)
  }

  /** Copies bytes into a slab (when they are short enough to share one). */
  copy(bytes: Uint8Array): Uint8Array {
    if (bytes.length > SLAB_BYTES / 4) return this.#count(bytes)
    if (this.#slab.length - this.#used < bytes.length) this.#next()
    this.#slab.set(bytes, this.#used)
    return this.#take(bytes.length)
  }

  #next(): void {
    this.#slab = new Uint8Array(SLAB_BYTES)
    this.#used = 0
  }

  #take(length: number): Uint8Array {
    const view = this.#slab.subarray(this.#used, this.#used + length)
    this.#used += length
    this.written += length
    return view
  }

  #count(bytes: Uint8Array): Uint8Array {
    this.written += bytes.length
    return bytes
  }
}

function decode<R>(bytes: Uint8Array): R {
  return JSON.parse(decoder.decode(bytes)) as R
}

/** A copy of a checkpoint: cheaper than `structuredClone` for the one array it holds. */
function copyCheckpoint(checkpoint: SyncCheckpoint): SyncCheckpoint {
  return { ...checkpoint, affected: [...checkpoint.affected] }
}

/** What the memory store keeps of one review: its UTF-8 JSON, and what listing it needs without decoding it. */
interface Held {
  group: string
  publish: string
  bytes: Uint8Array
}

/**
 * A {@link ReviewStore} in memory: the embedded default, for one process and one run of the server.
 * Reviews are kept as UTF-8 JSON (about three quarters of the memory its object would take, and no
 * object for the garbage collector to walk) in slabs of 1 MiB (about the size of the API's answers:
 * some 3 KB a review with its translations) and decoded when read, so a review read is a copy and
 * changing it never changes the held one. The bytes of a replaced review stay in their slab until the
 * unused bytes outgrow the held ones (and 8 MiB): then the held reviews are copied to new slabs, so
 * memory stays within twice what is held and the copying costs, in all, a constant per byte written.
 */
export function createMemoryReviewStore<R extends SyncedReview = ProductReview>(): ReviewStore<R> {
  const held = new Map<string, Held>()
  const groups = new Map<string, Set<string>>()
  let bytes = 0
  let checkpoint: SyncCheckpoint | undefined
  let slabs = new Slabs()
  /** The generation of the full run that last saw each id (`markSeen`). */
  const seen = new Map<string, number>()

  const get = (reviewId: string): R | undefined => {
    const review = held.get(reviewId)
    return review === undefined ? undefined : decode<R>(review.bytes)
  }
  const remove = (id: string, review: Held): void => {
    held.delete(id)
    seen.delete(id)
    groups.get(review.group)?.delete(id)
    bytes -= review.bytes.length
  }
  const put = (review: R): void => {
    const id = review.review_id
    const before = held.get(id)
    const group = groupOf(review)
    if (before !== undefined && before.group !== group) groups.get(before.group)?.delete(id)
    const encoded = slabs.encode(review)
    bytes += encoded.length - (before?.bytes.length ?? 0)
    held.set(id, { group, publish: review.publish_date, bytes: encoded })
    let ids = groups.get(group)
    if (ids === undefined) {
      ids = new Set()
      groups.set(group, ids)
    }
    ids.add(id)
  }

  return {
    get: async (reviewId) => get(reviewId),
    getMany: async (reviewIds) => reviewIds.map(get),
    has: async (reviewId) => held.has(reviewId),
    async putMany(reviews, saved) {
      for (const review of reviews) put(review)
      if (saved !== undefined) checkpoint = copyCheckpoint(saved)
      if (slabs.written - bytes <= Math.max(bytes, 8 << 20)) return
      slabs = new Slabs()
      for (const review of held.values()) review.bytes = slabs.copy(review.bytes)
    },
    async list(key) {
      const entries: [string, Held][] = []
      for (const id of groups.get(key) ?? []) entries.push([id, held.get(id) as Held])
      entries.sort(([a, x], [b, y]) =>
        x.publish !== y.publish ? (x.publish < y.publish ? 1 : -1) : a < b ? -1 : a > b ? 1 : 0,
      )
      return entries.map(([, review]) => decode<R>(review.bytes))
    },
    async removeExcept(kept) {
      const groupsOfRemoved = new Set<string>()
      for (const [id, review] of held) {
        if (kept.has(id)) continue
        remove(id, review)
        groupsOfRemoved.add(review.group)
      }
      return [...groupsOfRemoved].sort()
    },
    async markSeen(reviewIds, generation) {
      for (const id of reviewIds) if (!((seen.get(id) ?? 0) > generation)) seen.set(id, generation)
    },
    async removeUnseen(generation) {
      const groupsOfRemoved = new Set<string>()
      for (const [id, review] of held) {
        if ((seen.get(id) ?? 0) >= generation) continue
        remove(id, review)
        groupsOfRemoved.add(review.group)
      }
      for (const [id, mark] of seen) if (mark <= generation) seen.delete(id)
      return [...groupsOfRemoved].sort()
    },
    async removeMany(reviewIds) {
      const groupsOfRemoved = new Set<string>()
      for (const id of reviewIds) {
        const review = held.get(id)
        if (review === undefined) continue
        remove(id, review)
        groupsOfRemoved.add(review.group)
      }
      return [...groupsOfRemoved].sort()
    },
    countByKey: async (keys) => keys.map((key) => groups.get(key)?.size ?? 0),
    async keys() {
      const keys: string[] = []
      for (const [key, ids] of groups) if (ids.size > 0) keys.push(key)
      return keys.sort()
    },
    all: async () => [...held.values()].map((review) => decode<R>(review.bytes)),
    count: async () => held.size,
    getCheckpoint: async () => (checkpoint === undefined ? undefined : copyCheckpoint(checkpoint)),
    async setCheckpoint(saved) {
      checkpoint = copyCheckpoint(saved)
    },
  }
}
