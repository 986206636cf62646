/**
 * `@verified-reviews/core`: the server-only client of the Verified Reviews (Skeepers) APIs — the
 * Published API, purchase events, and the legacy and Genesis APIs — with tokens, retries, rate
 * limits, pagination, validation and typed errors.
 *
 * @module
 */

export {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  type APITimeoutErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type ErrorSource,
  InternalServerError,
  InvalidResponseError,
  NotAcceptableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RateShareError,
  ResponseTooLargeError,
  ValidationError,
  type ValidationIssue,
  type ValidationIssueCode,
  VerifiedReviewsError,
} from './internal/base/errors.ts'
export type {
  RateBudgetAnswer,
  SharedLock,
  SharedRateBudget,
  StoredToken,
  TokenStore,
} from './internal/base/shared-state.ts'
export {
  type CacheOptions,
  type ClientOptions,
  createClient,
  type FetchOptions,
  type Operation,
  type OperationCall,
  type OperationParams,
  type RateLimitEvent,
  type RequestCacheOptions,
  type RequestOptions,
  type RequestOptionsHook,
  type RetryEvent,
  VerifiedReviewsClient,
} from './internal/client/client.ts'
export { type DefaultClientOptions, defaultClient } from './internal/client/default-client.ts'
export { verifyCredentials } from './internal/client/verify-credentials.ts'
export { Page, PagePromise } from './internal/context/pagination.ts'
export {
  PURCHASE_EVENT_FORM_FIELDS,
  type PurchaseEventFormField,
  type PurchaseEventFormOptions,
  type PurchaseEventFormReading,
  type PurchaseEventFormValues,
  purchaseEventFromForm,
  SHOPPER_FORM_FIELDS,
} from './internal/purchase-events/purchase-event-form.ts'
export {
  ENVIRONMENT_VARIABLES,
  type EnvironmentClientOptions,
  type EnvironmentSource,
  missingCredentials,
  readEnvironment,
  type VerifiedReviewsEnvironment,
} from './internal/settings/environment.ts'
export type { BrandReviews, Brands } from './resources/brands.ts'
export type { Genesis, GenesisProduct, GenesisStatic, GenesisWebsite } from './resources/genesis.ts'
export type {
  Legacy,
  LegacyProductRatings,
  LegacyProductReviews,
  LegacyProducts,
} from './resources/legacy.ts'
export type {
  ProductRatings,
  ProductReviews,
  ProductStructuredData,
  Products,
} from './resources/products.ts'
export type {
  PurchaseEventRejection,
  PurchaseEventResult,
  PurchaseEvents,
} from './resources/purchase-events.ts'
export * from './types/index.ts'
export type {
  BrandListParams,
  BrandReviewListParams,
  DateFilter,
  GenesisProductAverageParams,
  GenesisProductReviewsParams,
  GenesisWebsiteChoice,
  GenesisWebsiteGetParams,
  LegacyRatingsGetParams,
  LegacyReviewsGetParams,
  ListParams,
  ProductListParams,
  ProductRatingListParams,
  ProductReviewListParams,
  StructuredDataParams,
  SubmitPurchaseEventsParams,
  Values,
} from './types/params.ts'
