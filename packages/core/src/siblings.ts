/**
 * `@verified-reviews/core/internal`: for `@verified-reviews/react`, `/next`, `/astro`, `/redis`, `/inject` and
 * `/migrate` only, **not part of the public API**: its names change in any release, outside semver. It is
 * what the review components compute before they render, with no framework and no message catalogue, so both
 * component packages render the same markup from the same logic and the "more reviews" island can run
 * it in the browser; `productSection` and `brandSection` decide where a section's data comes from (the
 * build's catalog, the replica, the API) from the facts each framework gathers. Holds no credentials. The static-HTML injector (`@verified-reviews/inject`)
 * takes from it the JSON-LD merge helpers, the locale check, the prefetch's wording and `mapWithLimit`.
 * Nothing here may reach a `node:` module, not even through a dynamic import: a browser bundle of the
 * island would fail to resolve it.
 *
 * @module
 * @internal
 */

// The injector (`@verified-reviews/inject`) reads and writes pages several at once.
export { mapWithLimit } from './internal/base/concurrency.ts'
export { processState } from './internal/base/process-state.ts'
export { sha256Hex } from './internal/base/sha256.ts'
export { check, isIntegerIn } from './internal/base/validate.ts'
export { fetchSummaries, type SummaryClient } from './internal/catalog/fetch-summaries.ts'
export {
  checkLimit,
  DEFAULT_REVIEWS_LIMIT,
  type EndpointRequest,
  endpointUrl,
  MAX_REVIEWS_LIMIT,
  otherParams,
  pageHrefs,
  parseReviewView,
  REVIEW_SORTS,
  type ReviewSort,
  type ReviewView,
  rateLinks,
  type SearchParamsRecord,
  type SortField,
  sameRates,
  sortFields,
  viewHref,
  viewQuery,
} from './internal/cursor/review-query.ts'
export {
  combineProductSummaries,
  newestFirst,
  type ProductSummaryView,
  variationIds,
} from './internal/display/product-group.ts'
export {
  countOrZero,
  emptyBrandRating,
  type HistogramRow,
  histogramRows,
  NO_RATING,
  type RatingCriterion,
  ratingCriteria,
  ratingPeriods,
} from './internal/display/ratings.ts'
export {
  languageOf,
  shownTranslation,
  type TranslatedText,
  translatedText,
} from './internal/display/translated-text.ts'
export { pageHref, pageUrl, type TrailingSlash } from './internal/display/url.ts'
export { isLocale } from './internal/i18n/locale.ts'
export { createTextFormatter } from './internal/i18n/text-formatter.ts'
// The injector finds the Product node of a page's JSON-LD and merges into it.
export { mergeTarget, productNodesIn, schemaTypes } from './internal/jsonld/merge.ts'
// The injector's command describes the fetch as the build prefetch's log does.
export { describeReviewsChoice } from './internal/prefetch/progress-log.ts'
export { replicaAccount } from './internal/settings/environment.ts'
// The Redis budget reads the limits as the client's own budget does.
export { type RateWindow, rateWindowsOf } from './internal/transport/rate-windows.ts'
export type { BrandReplica, BrandView } from './internal/view/brand-view.ts'
export { classNames, type HeadingLevel, subLevel } from './internal/view/heading.ts'
export { type MessagePart, messageParts } from './internal/view/message-parts.ts'
// The build's data and the replica read directly, by the catalog's and the replica's tests and the bench.
export {
  buildDataSource,
  loadProductView,
  type ProductReplica,
  type ProductView,
  replicaSource,
  structuredDataJsonLd,
} from './internal/view/product-view.ts'
export {
  type ReviewControlGroup,
  type ReviewControlOption,
  reviewControls,
} from './internal/view/review-controls.ts'
export {
  DEFAULT_MEDIA_WIDTHS,
  DEFAULT_THUMBNAIL_SIZE,
  type MediaWidths,
  REVIEWS_PROVIDER,
  type ReviewCriterion,
  type ReviewData,
  type ReviewImage,
  type ReviewReply,
  reviewAuthor,
  reviewCriteria,
  reviewDisclosure,
  reviewImages,
  reviewReplies,
  reviewSource,
} from './internal/view/review-parts.ts'
export {
  type BrandSectionFacts,
  brandSection,
  type ProductSectionFacts,
  type ProductSectionOrigin,
  productSection,
  productSectionSource,
} from './internal/view/section.ts'
export { ratingTenths, STAR_RATING, type StarRatingView, starRating } from './internal/view/stars.ts'
export { type SignedViewPage, signedViewPage, type ViewParams } from './internal/view/view-page.ts'
// The Genesis client reads its static files with these; the migration package reads the same files.
export {
  genesisCount,
  genesisNumber,
  parseGenesisBrandFile,
  parseGenesisShopsFile,
} from './resources/genesis-files.ts'
