import { createRevalidateRoute } from '@verified-reviews/next'

// Call it on a schedule (Vercel Cron, a cron job) with `Authorization: Bearer $VERIFIED_REVIEWS_REVALIDATE_SECRET`:
// it fetches the reviews published since its last run and revalidates the pages of those products.
export const { GET, POST } = createRevalidateRoute()
