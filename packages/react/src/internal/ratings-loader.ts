import type { ProductRating, ProductRatingsLookupType, VerifiedReviewsClient } from '@verified-reviews/core'
import { cache } from 'react'

/** The part of the client the loader calls, so tests and wrappers can stand in for it. */
export type RatingsClient = Pick<VerifiedReviewsClient, 'products'>

// The bulk ratings operation takes at most 200 identifiers per request.
const MAX_IDS = 200

interface Waiter {
  resolve(rating: ProductRating | undefined): void
  reject(error: unknown): void
  promise: Promise<ProductRating | undefined>
}

interface Batch {
  waiters: Map<string, Waiter>
  timer: ReturnType<typeof setTimeout> | undefined
}

// Per client and lookup type, the batch still collecting identifiers.
const open = new WeakMap<RatingsClient, Map<ProductRatingsLookupType, Batch>>()

function waiter(): Waiter {
  let resolve!: Waiter['resolve']
  let reject!: Waiter['reject']
  const promise = new Promise<ProductRating | undefined>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { resolve, reject, promise }
}

function send(client: RatingsClient, type: ProductRatingsLookupType, batch: Batch): void {
  const batches = open.get(client)
  if (batches?.get(type) === batch) batches.delete(type)
  if (batch.timer !== undefined) clearTimeout(batch.timer)
  const ids = [...batch.waiters.keys()]
  client.products.ratings.list({ type, value: ids }).then(
    (ratings) => {
      const byId = new Map(ratings.map((rating) => [rating[type], rating]))
      for (const [id, pending] of batch.waiters) pending.resolve(byId.get(id))
    },
    // Every waiter gets the same error object, so it is reported once however many components share it.
    (error: unknown) => {
      for (const pending of batch.waiters.values()) pending.reject(error)
    },
  )
}

/**
 * The rating of one product, fetched with the others asked for in the same tick: identifiers are
 * collected until the next macrotask (every component of a render pass, and those that render in its
 * microtasks), then sent in one bulk call per 200. `undefined` when the product has no reviews.
 */
export function loadRating(
  client: RatingsClient,
  type: ProductRatingsLookupType,
  id: string,
): Promise<ProductRating | undefined> {
  let batches = open.get(client)
  if (batches === undefined) {
    batches = new Map()
    open.set(client, batches)
  }
  let batch = batches.get(type)
  if (batch === undefined) {
    const created: Batch = { waiters: new Map(), timer: undefined }
    created.timer = setTimeout(() => send(client, type, created), 0)
    batches.set(type, created)
    batch = created
  }
  let pending = batch.waiters.get(id)
  if (pending === undefined) {
    pending = waiter()
    batch.waiters.set(id, pending)
    if (batch.waiters.size >= MAX_IDS) send(client, type, batch)
  }
  return pending.promise
}

/**
 * {@link loadRating} memoized for the request by React's `cache()` in Server Components: a product
 * shown twice on a page is asked for once. Elsewhere `cache()` memoizes nothing and the batch alone
 * shares the call.
 */
export const requestRating = cache(loadRating)
