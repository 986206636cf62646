import type { BrandReview } from '@verified-reviews/core'
import { createSqliteBrandRatingStore, createSqliteReviewStore } from '@verified-reviews/core/sync'
import { freshReviewsClient } from '../clients.ts'
import { handedBuildOptions } from './build-handoff.ts'
import { LOG_PREFIX } from './log-prefix.ts'
import { syncBrandReplica } from './replica.ts'

/** Whether the build syncs the brand and shop reviews: `withVerifiedReviews({ brandReviews })`, through the environment. */
export function buildsBrandReviews(): boolean {
  return handedBuildOptions().buildBrandReviews === true
}

/**
 * Syncs the brand and shop reviews (200 a call) and the statistics of the brand and its shops (one call
 * for 200) into the build's review store `file` (the tables `brand_reviews` and `brand_ratings` that a
 * server's replica reads), once, in the build process that fetched the product data, and says in the
 * build log what it synced and the calls it made. A failure is said too, and the build goes on: its
 * pages do not show brand reviews (the shop page renders on request), and a server syncs them as it does
 * without the option (the first revalidate call, or the first shop render in the background).
 */
export async function syncBuildBrandReviews(file: string): Promise<void> {
  const brands = {
    reviews: createSqliteReviewStore<BrandReview>(file, { name: 'brand_reviews' }),
    ratings: createSqliteBrandRatingStore(file),
  }
  try {
    const report = await syncBrandReplica(brands, freshReviewsClient())
    const statistics =
      report.statistics === undefined
        ? ''
        : `; ${report.statistics.ratings.toLocaleString('en-US')} statistics (the brand and its shops), ` +
          `${report.statistics.calls} call${report.statistics.calls === 1 ? '' : 's'} (brands.list)`
    const count = await brands.reviews.count()
    console.log(
      `${LOG_PREFIX} build brand and shop reviews ready: ${count.toLocaleString('en-US')} reviews ` +
        `(${report.mode} sync), ${report.calls} call${report.calls === 1 ? '' : 's'} (brands.reviews.list)${statistics}. ` +
        'The shop page reads them from the replica from the first request.',
    )
  } catch (error) {
    console.error(
      `${LOG_PREFIX} The build could not sync the brand and shop reviews (brandReviews); the build goes on. ` +
        'The servers sync them at the first revalidate call, or in the background at the first shop render; ' +
        'the shop page reads the API until then.',
      error,
    )
  } finally {
    await Promise.all([brands.reviews.close(), brands.ratings.close()])
  }
}
