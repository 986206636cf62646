import { withVerifiedReviews } from '@verified-reviews/next/config'
import type { NextConfig } from 'next'

// A site with Cache Components on: the app owns caching ('use cache', cacheLife, cacheTag).
const config: NextConfig = {
  cacheComponents: true,
  partialPrefetching: true,
  distDir: process.env.NEXT_DEMO_DIST_DIR || '.next',
  transpilePackages: ['@verified-reviews/core', '@verified-reviews/react', '@verified-reviews/next'],
}

export default withVerifiedReviews(config)
