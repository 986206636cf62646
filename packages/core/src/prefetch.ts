/**
 * `@verified-reviews/core/prefetch`: the review data of a static build, fetched once and shared by
 * every page and every build worker. {@link createReviewsCatalog} is the one catalog of a build
 * (summaries, ratings, reviews), fetched in this process or
 * shared by the processes of the build (an SQLite file, or a share across machines);
 * {@link prefetchBuildData} gives its data as a whole. A build of N product pages costs
 * ceil(reviews / 200) + ceil(N / 200) API calls instead of N or 3N, and fewer when the build names its
 * products and their reviews cost fewer calls than the sync of every review. {@link checkBuildCredentials}
 * says at the start of a build whether it can fetch review data, and whether the build stops when not.
 *
 * @module
 */

export type {
  CatalogRating,
  LocalCatalogOptions,
  ReviewsCatalog,
  ReviewsCatalogCalls,
  ReviewsCatalogClient,
} from './internal/catalog/local-catalog.ts'
export type { PrefetchProgress, PrefetchReport } from './internal/catalog/prefetch-progress.ts'
export type { ReviewsChoice } from './internal/catalog/review-plan.ts'
export {
  type BuildData,
  type PrefetchClient,
  type PrefetchOptions,
  prefetchBuildData,
} from './internal/prefetch/build-data.ts'
export {
  type BuildCheck,
  type BuildProblem,
  type BuildProblemKind,
  type BuildSettingNames,
  type BuildSettings,
  buildProblemOf,
  buildStops,
  checkBuildCredentials,
  describeBuildProblem,
} from './internal/prefetch/build-problem.ts'
export {
  describePrefetchProgress,
  describePrefetchReport,
  type PrefetchProgressLogOptions,
  prefetchProgressLog,
} from './internal/prefetch/progress-log.ts'
export {
  type CatalogSharing,
  createReviewsCatalog,
  type ReviewsCatalogOptions,
} from './internal/prefetch/reviews-catalog.ts'
export type { PrefetchShare } from './internal/prefetch/run-once.ts'
