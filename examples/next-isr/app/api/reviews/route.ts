import { createReviewsRoute } from '@verified-reviews/next'

// The "More reviews" button's endpoint (the `endpoint` of ProductReviews).
export const { GET } = createReviewsRoute()
