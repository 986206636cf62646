import type { ProductReview } from '../../types/published.ts'
import { sharedPromise } from '../single-flight.ts'
import { groupOf, type ReviewStore, type SyncCheckpoint, type SyncedReview } from './store.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Where a table reads the bytes of reviews it does not hold in memory (the JSON file store's files). */
export interface ByteSource {
  read(offset: number, length: number): Promise<Uint8Array>
}

/**
 * What a table keeps of one review: its JSON as UTF-8 in memory (`bytes`), or where to read it
 * (`source`, `offset`, `length`), and what listing it needs without reading it.
 */
export interface Held {
  group: string
  publish: string
  bytes: Uint8Array | undefined
  source: ByteSource | undefined
  offset: number
  length: number
}

/** The UTF-8 JSON of a review, as a table holds it and the JSON file store writes it. */
export function encodeReview(review: SyncedReview): Uint8Array {
  return encoder.encode(JSON.stringify(review))
}

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
export function copyCheckpoint(checkpoint: SyncCheckpoint): SyncCheckpoint {
  return { ...checkpoint, affected: [...checkpoint.affected] }
}

/** The bytes of a held review: from memory, or read from where they are. */
export function bytesOf(held: Held): Uint8Array | Promise<Uint8Array> {
  if (held.bytes !== undefined) return held.bytes
  return (held.source as ByteSource).read(held.offset, held.length)
}

/**
 * The reviews of a store and its checkpoint. Each review is kept as its UTF-8 JSON (about three
 * quarters of the memory its object would take, and no object for the garbage collector to walk), or,
 * in the JSON file store, only as where its bytes are in the file, with its group and publication date
 * beside it so that listing sorts before reading. Reading decodes, so every review read is a copy and
 * changing it never changes the held one.
 */
export class ReviewTable<R extends SyncedReview> {
  readonly #held = new Map<string, Held>()
  readonly #groups = new Map<string, Set<string>>()
  #bytes = 0
  checkpoint: SyncCheckpoint | undefined

  /** Stores a review (replacing a held one with the same id) in memory; `bytes` is its encoding when made. */
  put(review: R, bytes: Uint8Array = encodeReview(review)): Held {
    return this.#set(review, { bytes, source: undefined, offset: 0, length: bytes.length })
  }

  /** Stores a review whose bytes are at `offset` in `source`, not in memory. */
  putAt(review: R, source: ByteSource, offset: number, length: number): Held {
    return this.#set(review, { bytes: undefined, source, offset, length })
  }

  #set(review: R, where: Omit<Held, 'group' | 'publish'>): Held {
    const id = review.review_id
    const before = this.#held.get(id)
    const group = groupOf(review)
    if (before !== undefined && before.group !== group) this.#groups.get(before.group)?.delete(id)
    const held: Held = { group, publish: review.publish_date, ...where }
    this.#bytes += held.length - (before?.length ?? 0)
    this.#held.set(id, held)
    let ids = this.#groups.get(group)
    if (ids === undefined) {
      ids = new Set()
      this.#groups.set(group, ids)
    }
    ids.add(id)
    return held
  }

  async get(reviewId: string): Promise<R | undefined> {
    const held = this.#held.get(reviewId)
    return held === undefined ? undefined : decode<R>(await bytesOf(held))
  }

  has(reviewId: string): boolean {
    return this.#held.has(reviewId)
  }

  /** The reviews of a group, newest published first, ties by review id. */
  async list(key: string): Promise<R[]> {
    const ids = this.#groups.get(key)
    if (ids === undefined) return []
    const entries: [string, Held][] = []
    for (const id of ids) entries.push([id, this.#held.get(id) as Held])
    entries.sort(([a, x], [b, y]) =>
      x.publish !== y.publish ? (x.publish < y.publish ? 1 : -1) : a < b ? -1 : a > b ? 1 : 0,
    )
    const bytes = await Promise.all(entries.map(([, held]) => bytesOf(held)))
    return bytes.map((item) => decode<R>(item))
  }

  keys(): string[] {
    const keys: string[] = []
    for (const [key, ids] of this.#groups) if (ids.size > 0) keys.push(key)
    return keys.sort()
  }

  async all(): Promise<R[]> {
    const reviews: R[] = []
    for (const held of this.#held.values()) reviews.push(decode<R>(await bytesOf(held)))
    return reviews
  }

  /** What is held of every review, in the order they were first stored. */
  held(): IterableIterator<Held> {
    return this.#held.values()
  }

  get size(): number {
    return this.#held.size
  }

  /** The length of the JSON of every review held, in bytes. */
  get bytes(): number {
    return this.#bytes
  }
}

/** What a store over a {@link ReviewTable} is told of each change, to persist it. */
export interface TableChange {
  /** The reviews stored, in order: what the table holds of each, and its bytes (as they were stored). */
  reviews: { held: Held; bytes: Uint8Array }[]
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
  encode: (review: R) => Uint8Array = encodeReview,
): ReviewStore<R> {
  // A load that failed (a file that could not be read) is tried again by the next call, not kept.
  const open = sharedPromise(load)

  return {
    async get(reviewId) {
      return (await open()).get(reviewId)
    },
    async getMany(reviewIds) {
      const table = await open()
      return Promise.all(reviewIds.map((id) => table.get(id)))
    },
    async has(reviewId) {
      return (await open()).has(reviewId)
    },
    async putMany(reviews, checkpoint) {
      const table = await open()
      const stored = reviews.map((review) => {
        const bytes = encode(review)
        return { held: table.put(review, bytes), bytes }
      })
      const saved = checkpoint === undefined ? undefined : copyCheckpoint(checkpoint)
      if (saved !== undefined) table.checkpoint = saved
      await persist({ reviews: stored, checkpoint: saved }, table)
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
 * Reviews are kept as UTF-8 JSON in slabs of 1 MiB (about the size of the API's answers: some 3 KB a
 * review with its translations) and decoded when read, so a review read is a copy and changing it never
 * changes the held one. The bytes of a replaced review stay in their slab until the unused bytes
 * outgrow the held ones (and 8 MiB): then the held reviews are copied to new slabs, so memory stays
 * within twice what is held and the copying costs, in all, a constant per byte written.
 */
export function createMemoryReviewStore<R extends SyncedReview = ProductReview>(): ReviewStore<R> {
  let slabs = new Slabs()
  return reviewStoreOver<R>(
    async () => new ReviewTable<R>(),
    async (_change, table) => {
      if (slabs.written - table.bytes <= Math.max(table.bytes, 8 << 20)) return
      slabs = new Slabs()
      for (const held of table.held()) held.bytes = slabs.copy(held.bytes as Uint8Array)
    },
    (review) => slabs.encode(review),
  )
}
