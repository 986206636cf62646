import type { ProductReview } from '../../types/published.ts'
import { groupOf, type ReviewStore, type SyncCheckpoint, type SyncedReview } from './store.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** What a table keeps of one review: its JSON as UTF-8, and what listing it needs without decoding it. */
interface Held {
  bytes: Uint8Array
  group: string
  publish: string
}

/** The UTF-8 JSON of a review, as a table holds it and the JSON file store writes it. */
export function encodeReview(review: SyncedReview): Uint8Array {
  return encoder.encode(JSON.stringify(review))
}

function decode<R>(bytes: Uint8Array): R {
  return JSON.parse(decoder.decode(bytes)) as R
}

/** A copy of a checkpoint: cheaper than `structuredClone` for the one array it holds. */
export function copyCheckpoint(checkpoint: SyncCheckpoint): SyncCheckpoint {
  return { ...checkpoint, affected: [...checkpoint.affected] }
}

/**
 * The reviews of a store and its checkpoint, in memory. Each review is kept as its UTF-8 JSON (about
 * three quarters of the memory its object would take, and no object for the garbage collector to walk),
 * with its group and publication date beside it so that listing sorts before decoding. Reading decodes,
 * so every review read is a copy and changing it never changes the held one.
 */
export class ReviewTable<R extends SyncedReview> {
  readonly #held = new Map<string, Held>()
  readonly #groups = new Map<string, Set<string>>()
  checkpoint: SyncCheckpoint | undefined

  /** Stores a review (replacing a held one with the same id); `bytes` is its encoding when already made. */
  put(review: R, bytes: Uint8Array = encodeReview(review)): Uint8Array {
    const id = review.review_id
    const before = this.#held.get(id)
    const group = groupOf(review)
    if (before !== undefined && before.group !== group) this.#groups.get(before.group)?.delete(id)
    this.#held.set(id, { bytes, group, publish: review.publish_date })
    let ids = this.#groups.get(group)
    if (ids === undefined) {
      ids = new Set()
      this.#groups.set(group, ids)
    }
    ids.add(id)
    return bytes
  }

  get(reviewId: string): R | undefined {
    const held = this.#held.get(reviewId)
    return held === undefined ? undefined : decode<R>(held.bytes)
  }

  has(reviewId: string): boolean {
    return this.#held.has(reviewId)
  }

  /** The reviews of a group, newest published first, ties by review id. */
  list(key: string): R[] {
    const ids = this.#groups.get(key)
    if (ids === undefined) return []
    const entries: [string, Held][] = []
    for (const id of ids) entries.push([id, this.#held.get(id) as Held])
    entries.sort(([a, x], [b, y]) =>
      x.publish !== y.publish ? (x.publish < y.publish ? 1 : -1) : a < b ? -1 : a > b ? 1 : 0,
    )
    return entries.map(([, held]) => decode<R>(held.bytes))
  }

  keys(): string[] {
    const keys: string[] = []
    for (const [key, ids] of this.#groups) if (ids.size > 0) keys.push(key)
    return keys.sort()
  }

  all(): R[] {
    const reviews: R[] = []
    for (const held of this.#held.values()) reviews.push(decode<R>(held.bytes))
    return reviews
  }

  /** The encoded reviews, in the order they were first stored. */
  *encoded(): IterableIterator<Uint8Array> {
    for (const held of this.#held.values()) yield held.bytes
  }

  get size(): number {
    return this.#held.size
  }
}

/** What a store over a {@link ReviewTable} is told of each change, to persist it. */
export interface TableChange {
  /** The reviews stored, encoded, in order. */
  reviews: Uint8Array[]
  /** The checkpoint saved with them, a copy; undefined when the change left it as it was. */
  checkpoint: SyncCheckpoint | undefined
}

/**
 * A {@link ReviewStore} over a {@link ReviewTable} loaded by `load`; `persist` (when given) is awaited
 * after every change, which is how the JSON file store writes through.
 */
export function reviewStoreOver<R extends SyncedReview>(
  load: () => Promise<ReviewTable<R>>,
  persist: (change: TableChange, table: ReviewTable<R>) => Promise<void> = async () => {},
): ReviewStore<R> {
  let loaded: Promise<ReviewTable<R>> | undefined
  const open = () => {
    if (loaded === undefined) {
      const attempt = load()
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
      return (await open()).get(reviewId)
    },
    async getMany(reviewIds) {
      const table = await open()
      return reviewIds.map((id) => table.get(id))
    },
    async has(reviewId) {
      return (await open()).has(reviewId)
    },
    async putMany(reviews, checkpoint) {
      const table = await open()
      const encoded = reviews.map((review) => table.put(review))
      const saved = checkpoint === undefined ? undefined : copyCheckpoint(checkpoint)
      if (saved !== undefined) table.checkpoint = saved
      await persist({ reviews: encoded, checkpoint: saved }, table)
    },
    async list(key) {
      return (await open()).list(key)
    },
    async keys() {
      return (await open()).keys()
    },
    async all() {
      return (await open()).all()
    },
    async count() {
      return (await open()).size
    },
    async getCheckpoint() {
      const { checkpoint } = await open()
      return checkpoint === undefined ? undefined : copyCheckpoint(checkpoint)
    },
    async setCheckpoint(checkpoint) {
      const table = await open()
      const saved = copyCheckpoint(checkpoint)
      table.checkpoint = saved
      await persist({ reviews: [], checkpoint: saved }, table)
    },
  }
}

/**
 * A {@link ReviewStore} in memory: the embedded default, for one process and one run of the server.
 * Reviews are kept as UTF-8 JSON (about the size of the API's answers: some 3 KB a review with its
 * translations) and decoded when read, so a review read is a copy and changing it never changes the
 * held one.
 */
export function createMemoryReviewStore<R extends SyncedReview = ProductReview>(): ReviewStore<R> {
  return reviewStoreOver<R>(async () => new ReviewTable<R>())
}
