import { Brands } from '../../resources/brands.ts'
import { Genesis } from '../../resources/genesis.ts'
import { Legacy } from '../../resources/legacy.ts'
import { Products } from '../../resources/products.ts'
import { PurchaseEvents } from '../../resources/purchase-events.ts'
import { type ClientContext, createContext } from '../context/client-context.ts'
import { CLIENT_INTERNALS } from '../cursor/signed-cursor.ts'
import type { ClientOptions } from '../settings/client-options.ts'
import { processEnvironment } from '../settings/environment.ts'
import { type ClientSettings, resolveSettings } from '../settings/settings.ts'

export type { Operation, OperationCall, OperationParams, RequestOptionsHook } from '../../types/operations.ts'
export type {
  CacheOptions,
  FetchOptions,
  RateLimitEvent,
  RequestCacheOptions,
  RequestOptions,
  RetryEvent,
} from '../../types/request-options.ts'
// The public types of the client live below it, where the transport and the resources read them.
export type { ClientOptions } from '../settings/client-options.ts'

/** A client of the Verified Reviews APIs. Create it with {@link createClient}. */
export class VerifiedReviewsClient {
  /** Product summaries, product reviews, bulk ratings and structured data (Published API). */
  readonly products: Products
  /** Brand and shop rating statistics and reviews (Published API). */
  readonly brands: Brands
  /** Submitting purchase events. */
  readonly purchaseEvents: PurchaseEvents
  /** The legacy Product Reviews API, for integrations that migrate one call at a time. */
  readonly legacy: Legacy
  /** The Genesis API, for integrations that migrate one call at a time. */
  readonly genesis: Genesis

  /** @internal Use {@link createClient}. */
  constructor(context: ClientContext) {
    this.products = new Products(context)
    this.brands = new Brands(context)
    this.purchaseEvents = new PurchaseEvents(context)
    this.legacy = new Legacy(context)
    this.genesis = new Genesis(context)
    // Not enumerable and under a symbol: the cursor key derived from the secret, and the rate budget.
    Object.defineProperty(this, CLIENT_INTERNALS, { value: context.internals })
  }
}

/**
 * Creates a client of the Verified Reviews APIs. Server-only: it holds your API credentials.
 *
 * @example
 * ```ts
 * import { createClient } from '@verified-reviews/core'
 * const vr = createClient() // VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET
 * const page = await vr.products.reviews.list({ product_variation_id: ['SKU-1'], limit: 20 })
 * ```
 */
export function createClient(options: ClientOptions = {}): VerifiedReviewsClient {
  return clientOf(resolveSettings(options, processEnvironment()))
}

/** The client of settings already resolved (see `resolveSettings`). Internal: not exported by the package. */
export function clientOf(settings: ClientSettings): VerifiedReviewsClient {
  return new VerifiedReviewsClient(createContext(settings))
}
