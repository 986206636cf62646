import type { IncomingHttpHeaders } from 'node:http'
import { CatalogueIndex } from './catalogue-index.ts'
import type { BrandReview, Product, ProductReview, Shop, StoredPurchaseEvent } from './types.ts'

/** Which token endpoint issued a token; a token opens only the API of its own audience. */
export type Audience = 'published' | 'purchase-events'

/**
 * Names of the operations, as counted by `GET /__sandbox/stats` and targeted by
 * `POST /__sandbox/faults`.
 */
export const OPERATIONS = [
  'token.published',
  'token.purchase-events',
  'products.list',
  'products.reviews.list',
  'products.ratings.list',
  'products.structured-data.get',
  'brands.list',
  'brands.reviews.list',
  'purchase-events.submit',
  'legacy.products.ratings',
  'legacy.products.reviews',
  'genesis.website',
  'genesis.product',
  'genesis.static.brand',
  'genesis.static.shops',
  'media',
] as const
export type Operation = (typeof OPERATIONS)[number]

/** The settings a sandbox runs with, after defaults. */
export interface SandboxSettings {
  seed: number
  clientId: string
  clientSecret: string
  websiteId: string
  /** Secret key of the Genesis API token (`sha256(idWebsite + secret + YYYY-MM-DD)`). */
  genesisSecret: string
  /** Requests per second per client on the rate-limited APIs; 0 disables the limit. */
  rateLimit: number
  /** Lifetime of an access token in seconds. */
  tokenTtl: number
  /** Products of the generated catalogue. */
  products: number
  /** Product reviews generated over the catalogue. */
  reviews: number
  /** Organization name used as author of the AI review summary. */
  organizationName: string
}

/** What every route sees of the sandbox's state. */
export interface SandboxState {
  readonly settings: SandboxSettings
  /** Catalogue, in `product_variation_id` order. */
  readonly products: Product[]
  /** Every published product review, in no particular order. */
  readonly productReviews: ProductReview[]
  readonly brandReviews: BrandReview[]
  readonly shops: Shop[]
  readonly purchaseEvents: StoredPurchaseEvent[]
  /**
   * Indexes over `products` and `productReviews`, kept up to date by the state's additions; a state
   * without one (a test's) is indexed afresh for each request.
   */
  readonly index?: CatalogueIndex
  /** The audience of a live token, or undefined when the token is unknown or expired. */
  tokenAudience(token: string): Audience | undefined
  /** A deterministic uuid v4 (from the seeded generator). */
  uuid(): string
}

/** One incoming request, already parsed. */
export interface SandboxRequest {
  method: string
  /** Path without the query string, percent-decoded per segment by the route. */
  path: string
  url: URL
  headers: IncomingHttpHeaders
  /** Raw body bytes (empty for GET). */
  body: Buffer
  /** `scheme://host[:port]` as the client addressed the sandbox; used for absolute links. */
  origin: string
}

/** What a route answers; the server writes it, applying faults and rate-limit headers. */
export interface SandboxResponse {
  status: number
  headers?: Record<string, string>
  /** A string or Buffer is sent as it is; anything else is sent as JSON. */
  body?: unknown
}

/** A route: a method, a path pattern and the operation it counts as. */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE'
  /** A pattern matched against the path, with named groups for path parameters. */
  pattern: RegExp
  operation: Operation | 'admin'
  /** Whether the per-client rate limit and its headers apply. */
  rateLimited: boolean
  handle(
    req: SandboxRequest,
    state: SandboxState,
    params: Record<string, string>,
  ): SandboxResponse | Promise<SandboxResponse>
}

/** The indexes of a state: its own, or (a test's state without one) built for this request. */
export function indexOf(state: SandboxState): CatalogueIndex {
  return state.index ?? new CatalogueIndex(state.products, state.productReviews)
}
