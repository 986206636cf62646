import { reviewViewRewrites, withVerifiedReviews } from '@verified-reviews/next/config'
import type { NextConfig } from 'next'
import { PRODUCTS } from './lib/catalogue'

const config: NextConfig = {
  cacheComponents: true,
  partialPrefetching: true,
  // Plain "next page", sort and rate links (no JavaScript) carry vr_* search params, which a static page
  // cannot read: those requests go to the dynamic twin app/products/[id]/reviews.
  async rewrites() {
    return {
      beforeFiles: reviewViewRewrites({ source: '/products/:id', destination: '/products/:id/reviews' }),
      afterFiles: [],
      fallback: [],
    }
  },
}

// At the start of `next build`: checks the credentials (refused ones stop the build), then fetches the
// reviews of these products once for every page and build worker (a few calls, not one per page).
export default withVerifiedReviews(config, { products: PRODUCTS.map((product) => product.id) })
