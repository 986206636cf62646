import { createReviewsRoute } from '@verified-reviews/next'

// The "More reviews" island's endpoint: pages of a product's reviews, cached and tagged by product.
export const { GET } = createReviewsRoute()
