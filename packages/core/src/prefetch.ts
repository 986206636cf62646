/**
 * `@verified-reviews/core/prefetch`: the review data of a static build, fetched once and shared by
 * every page and every build worker, so a build of N product pages costs
 * ceil(reviews / 200) + ceil(N / 200) API calls instead of N or 3N.
 *
 * @module
 */
export {
  type BuildData,
  type PrefetchClient,
  type PrefetchOptions,
  type PrefetchProgress,
  type PrefetchReport,
  prefetchBuildData,
} from './internal/prefetch/build-data.ts'
export type { PrefetchShare } from './internal/prefetch/lock.ts'
export {
  describePrefetchProgress,
  describePrefetchReport,
  type PrefetchProgressLogOptions,
  prefetchProgressLog,
} from './internal/prefetch/progress-log.ts'
