import { reviewViewRewrites, withVerifiedReviews } from '@verified-reviews/next/config'
import type { NextConfig } from 'next'

// A site with Cache Components on: the app owns caching ('use cache', cacheLife, cacheTag).
const config: NextConfig = {
  cacheComponents: true,
  partialPrefetching: true,
  distDir: process.env.NEXT_DEMO_DIST_DIR || '.next',
  transpilePackages: ['@verified-reviews/core', '@verified-reviews/react', '@verified-reviews/next'],
  // Sort, rate and page links carry vr_* search params, which the static page cannot read.
  async rewrites() {
    return {
      beforeFiles: reviewViewRewrites({ source: '/products/:id', destination: '/products/:id/reviews' }),
      afterFiles: [],
      fallback: [],
    }
  },
}

export default withVerifiedReviews(config)
