import { withVerifiedReviews } from '@verified-reviews/next/config'
import type { NextConfig } from 'next'

// One static page with a product's reviews: what `next build` does when review data cannot be fetched.
const config: NextConfig = {
  distDir: process.env.NEXT_DEMO_DIST_DIR || '.next',
  transpilePackages: ['@verified-reviews/core', '@verified-reviews/react', '@verified-reviews/next'],
}

export default withVerifiedReviews(config)
