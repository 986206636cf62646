/** The site's public origin, for canonical URLs and the JSON-LD `@id` of product pages. */
export const SITE_URL = (process.env.DEMO_SITE_URL ?? 'http://localhost:3000').replace(/\/$/, '')

/** The route that serves the "More reviews" island (`app/api/reviews/route.ts`). */
export const REVIEWS_ENDPOINT = '/api/reviews'
