import type { ReviewsChoice } from './review-plan.ts'

/** What a catalog's fetch is doing (`prefetchBuildData`, `createReviewsCatalog`), as `onProgress` is told it. */
export type PrefetchProgress =
  | {
      /** Another process fetches the data; this one waits for it. */
      phase: 'waiting'
      /** What holds the lock: `process 1234 on host`, or the name of the share. */
      holder: string
      /** Milliseconds this process has waited so far. */
      waitedMs: number
    }
  | {
      /** A page of product summaries arrived. */
      phase: 'summaries'
      /** Summaries received so far. */
      products: number
      calls: number
    }
  | {
      /** A page of reviews arrived (of the sync, or of the named products). */
      phase: 'reviews'
      /** Reviews received so far. */
      reviews: number
      /**
       * Reviews expected: the review counts of the products' summaries, for a first (full) sync or the
       * named products; undefined when unknown (an incremental sync).
       */
      expected: number | undefined
      calls: number
    }
  | { phase: 'done'; report: PrefetchReport }

/** What the process that fetched the build data did. */
export interface PrefetchReport {
  /**
   * How reviews were fetched: a full sync, an incremental one from the store kept by the last build, or
   * the reviews of the products the build names (`named`), chosen by {@link PrefetchReport.estimate}.
   */
  mode: ReviewsChoice
  /** Reviews the build data holds (of the named products, when the build names them). */
  reviews: number
  /** Reviews the fetch received that the store did not hold (all of them for `named`). */
  newReviews: number
  /** Products with a summary. */
  products: number
  /** API calls made: review pages and summary pages. */
  calls: { reviews: number; summaries: number }
  /**
   * The fewest calls that could fetch the same data: ceil(reviews received / 200) (at least 1 when
   * reviews were asked for) plus ceil(products / 200). `calls` above it means pages were fetched twice
   * or not full.
   */
  lowerBound: number
  /**
   * The review calls each way was expected to cost, from the summaries' review counts: `named`, of the
   * named products (undefined when the build names none); `sync`, of the sync (undefined when the
   * account's review count is unknown).
   */
  estimate: { named: number | undefined; sync: number | undefined }
}
