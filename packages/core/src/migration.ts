/**
 * `@verified-reviews/core/migration`: pure functions that turn calls and answers of the legacy
 * Product Reviews API and of the Genesis API into their Published API counterparts, so that an
 * integration can switch one call at a time. Each reports what it cannot carry over: parameter
 * mappers in their `dropped` list, record mappers in a `*_NOTES` list.
 */
export {
  fromGenesisProductBody,
  fromGenesisStaticFile,
  fromGenesisWebsiteParams,
  type GenesisProductMigration,
  type GenesisStaticFileMigration,
} from './internal/migration/genesis-params.ts'
export {
  fromGenesisAverage,
  fromGenesisAveragesResponse,
  fromGenesisBrandFile,
  fromGenesisBrandReview,
  fromGenesisProductReview,
  fromGenesisProductReviewsResponse,
  fromGenesisShopLine,
  fromGenesisWebsiteResponse,
  GENESIS_FILE_NOTES,
  GENESIS_REVIEW_NOTES,
  type GenesisBrandReviewOptions,
  type MigratedBrandRating,
  type MigratedProductRating,
  parseGenesisBrandFile,
  parseGenesisShopsFile,
} from './internal/migration/genesis-records.ts'
export { fromLegacyRatingsParams, fromLegacyReviewsParams } from './internal/migration/legacy-params.ts'
export {
  fromLegacyRating,
  fromLegacyRatingsResponse,
  fromLegacyReview,
  fromLegacyReviewsResponse,
  fromOldModeration,
  LEGACY_REVIEW_NOTES,
} from './internal/migration/legacy-records.ts'
export type {
  MigratedBrandReviewsParams,
  MigratedBrandsParams,
  MigratedProductRatingsParams,
  MigratedProductReviewsParams,
  MigratedProductsParams,
  MigrationNote,
  ParamsMigration,
  RatingsMigration,
} from './internal/migration/result.ts'
export { skipItems, takeItems, type WindowOptions } from './internal/migration/walk.ts'
