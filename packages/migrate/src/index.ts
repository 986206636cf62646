/**
 * `@verified-reviews/migrate`: pure functions that turn calls and answers of the legacy Product Reviews
 * API and of the Genesis API into their Published API counterparts, so that an integration can switch
 * one call at a time. Each reports what it cannot carry over: parameter mappers in their `dropped` list,
 * record mappers in a `*_NOTES` list. The calls themselves are made by the client of
 * `@verified-reviews/core` (`vr.legacy`, `vr.genesis`, and the Published resources that replace them).
 *
 * @module
 */
// The Genesis static files are read by the Genesis client of core (`vr.genesis.static`) and by a
// migration from files on disk alike: one parser, core's.
export { parseGenesisBrandFile, parseGenesisShopsFile } from '@verified-reviews/core/internal'
export {
  fromGenesisProductBody,
  fromGenesisStaticFile,
  fromGenesisWebsiteParams,
  type GenesisProductMigration,
  type GenesisStaticFileMigration,
} from './genesis-params.ts'
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
} from './genesis-records.ts'
export { skipItems, takeItems, type WindowOptions } from './item-windows.ts'
export { fromLegacyRatingsParams, fromLegacyReviewsParams } from './legacy-params.ts'
export {
  fromLegacyRating,
  fromLegacyRatingsResponse,
  fromLegacyReview,
  fromLegacyReviewsResponse,
  fromOldModeration,
  LEGACY_REVIEW_NOTES,
} from './legacy-records.ts'
export type {
  MigratedBrandReviewsParams,
  MigratedBrandsParams,
  MigratedProductRatingsParams,
  MigratedProductReviewsParams,
  MigratedProductsParams,
  MigrationNote,
  ParamsMigration,
  RatingsMigration,
} from './result.ts'
