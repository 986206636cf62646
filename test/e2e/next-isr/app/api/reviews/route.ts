import { createReviewsRoute } from '@verified-reviews/next'

export const { GET } = createReviewsRoute()
