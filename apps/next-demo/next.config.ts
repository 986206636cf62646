import { reviewViewRewrites, withVerifiedReviews } from '@verified-reviews/next/config'
import { withRedisCache } from '@verified-reviews/redis/next-config'
import type { NextConfig } from 'next'

// Without credentials the demo reads the local sandbox (`pnpm sandbox --port 4010`), with the sandbox's
// default credentials. Set here, before Next.js starts its build workers, so that every process has them.
const env = process.env
if (!env.VERIFIED_REVIEWS_CLIENT_ID && !env.VERIFIED_REVIEWS_CLIENT_SECRET) {
  env.VERIFIED_REVIEWS_ORIGIN ||= 'http://127.0.0.1:4010'
  env.VERIFIED_REVIEWS_CLIENT_ID = 'sandbox-client-id'
  env.VERIFIED_REVIEWS_CLIENT_SECRET = 'sandbox-client-secret'
}

const config: NextConfig = {
  // Cache Components: the review sections are 'use cache' components, tagged by product and shop.
  cacheComponents: true,
  // Off: with Partial Prefetching, Next.js embeds in every page it renders on request a runtime prefetch of
  // that same page, its React Server Components payload a second time (the shop page carried its 27 KB
  // payload twice). The pages rendered on request here (the shop pages, the reviews views) are mostly
  // reached by the reviews' plain links (shop, sort, rate, page), which prefetch nothing; the product pages
  // are prerendered, and a prerender embeds none.
  partialPrefetching: false,
  // The end-to-end tests build into their own folder, so a build of yours in .next stays as it is.
  distDir: env.NEXT_DEMO_DIST_DIR || '.next',
  transpilePackages: ['@verified-reviews/core', '@verified-reviews/react', '@verified-reviews/next'],
  async redirects() {
    return [{ source: '/', destination: '/en', permanent: false }]
  },
  async rewrites() {
    return {
      beforeFiles: reviewViewRewrites({
        source: '/:locale/products/:id',
        destination: '/:locale/products/:id/reviews',
      }),
      afterFiles: [],
      fallback: [],
    }
  },
}

// withVerifiedReviews checks the credentials once at the start of `next build` and says whether the pages
// will have reviews. `brandReviews`: the demo has a shop page (app/[locale]/brand), so the build also syncs
// the brand and shop reviews and their statistics into the replica (one call per 200 brand reviews, one for
// the statistics): the shop page reads it from the first request after `next start`, and the first
// revalidate call after a deploy goes on incrementally. withRedisCache (README, "Several instances"): with
// REDIS_URL, `next start` keeps Next.js's caches in the Redis every instance shares, so that a revalidation
// through one instance refreshes the pages of all; without it, nothing changes.
export default withVerifiedReviews(withRedisCache(config), { brandReviews: true })
