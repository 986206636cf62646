// The client's operations by name, with the parameters each is called with: public through
// `client/client.ts`, here in the types layer so that the layers below the client (its options, paging)
// can name them.

import type {
  BrandListParams,
  BrandReviewListParams,
  GenesisProductAverageParams,
  GenesisProductReviewsParams,
  GenesisWebsiteChoice,
  GenesisWebsiteGetParams,
  LegacyRatingsGetParams,
  LegacyReviewsGetParams,
  ProductListParams,
  ProductRatingListParams,
  ProductReviewListParams,
  StructuredDataParams,
  SubmitPurchaseEventsParams,
} from './params.ts'
import type { RequestOptions } from './request-options.ts'

/**
 * Every operation of the client, by its name (the path of the method: `products.reviews.list` is
 * `client.products.reviews.list`), with the parameters it is called with. Operations whose
 * parameters are optional are given `{}` when the caller passes none.
 */
export interface OperationParams {
  'products.list': ProductListParams
  'products.reviews.list': ProductReviewListParams
  'products.ratings.list': ProductRatingListParams
  'products.structuredData.get': StructuredDataParams
  'brands.list': BrandListParams
  'brands.reviews.list': BrandReviewListParams
  'purchaseEvents.submit': SubmitPurchaseEventsParams
  'legacy.products.ratings.get': LegacyRatingsGetParams
  'legacy.products.reviews.get': LegacyReviewsGetParams
  'genesis.website.get': GenesisWebsiteGetParams
  'genesis.product.reviews': GenesisProductReviewsParams
  'genesis.product.average': GenesisProductAverageParams
  'genesis.static.brand': GenesisWebsiteChoice
  'genesis.static.shops': GenesisWebsiteChoice
}

/** The name of an operation of the client, such as `'products.reviews.list'`. */
export type Operation = keyof OperationParams

/**
 * What a {@link RequestOptionsHook} sees of one call: the operation, its parameters and the options
 * the caller passed. A union of one object per operation, so that testing `operation` narrows
 * `params`, destructured or not.
 */
export type OperationCall = {
  [O in Operation]: {
    operation: O
    params: OperationParams[O]
    /** The options the caller passed as the last argument, if any. */
    options: RequestOptions | undefined
  }
}[Operation]

/**
 * Gives the request options of one call from its operation and parameters (see the `requestOptions`
 * option of `createClient`). `undefined` leaves the call as the caller made it.
 */
export type RequestOptionsHook = (call: OperationCall) => RequestOptions | undefined
