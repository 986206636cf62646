import { createReviewsRoute } from '@verified-reviews/next'
import { serverReplica } from '@verified-reviews/next/advanced'

// The "More reviews" island's endpoint: pages of a product's reviews, read from the server's replica
// (no API call) for the products it holds, else from the API, cached and tagged by product.
export const { GET } = createReviewsRoute({ replica: serverReplica })
