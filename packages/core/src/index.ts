/**
 * `@verified-reviews/core`: the server-only client of the Verified Reviews (Skeepers) APIs — the
 * Published API, purchase events, and the legacy and Genesis APIs — with tokens, retries, rate
 * limits, pagination, validation and typed errors.
 *
 * @module
 */
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
} from './client.ts'
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
} from './errors.ts'
export { type DefaultClientOptions, defaultClient } from './internal/default-client.ts'
export {
  ENVIRONMENT_VARIABLES,
  type EnvironmentClientOptions,
  type EnvironmentSource,
  missingCredentials,
  readEnvironment,
  type VerifiedReviewsEnvironment,
} from './internal/environment.ts'
export {
  PURCHASE_EVENT_FORM_FIELDS,
  type PurchaseEventFormField,
  type PurchaseEventFormOptions,
  type PurchaseEventFormReading,
  type PurchaseEventFormValues,
  purchaseEventFromForm,
  SHOPPER_FORM_FIELDS,
} from './internal/forms/purchase-event-form.ts'
export type {
  RateBudgetAnswer,
  SharedLock,
  SharedRateBudget,
  StoredToken,
  TokenStore,
} from './internal/shared-state.ts'
export { verifyCredentials } from './internal/verify-credentials.ts'
export { Page, PagePromise } from './pagination.ts'
export type { BrandReviews, Brands } from './resources/brands.ts'
export type { Genesis, GenesisProduct, GenesisStatic, GenesisWebsite } from './resources/genesis.ts'
export type {
  Legacy,
  LegacyProductRatings,
  LegacyProductReviews,
  LegacyProducts,
} from './resources/legacy.ts'
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
} from './resources/params.ts'
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
