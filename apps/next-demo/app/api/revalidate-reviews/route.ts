import { createRevalidateRoute } from '@verified-reviews/next'

// Called by a scheduler with `Authorization: Bearer $VERIFIED_REVIEWS_REVALIDATE_SECRET` (or Vercel Cron's
// CRON_SECRET): syncs new reviews and revalidates only the products and shops that have some.
export const { GET, POST } = createRevalidateRoute()
