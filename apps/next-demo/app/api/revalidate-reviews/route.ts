import { createRevalidateRoute } from '@verified-reviews/next'

// Called by a scheduler with `Authorization: Bearer $VERIFIED_REVIEWS_REVALIDATE_SECRET` (or Vercel Cron's
// CRON_SECRET): syncs new reviews into the site's replica, which every page reads, and revalidates only
// the products and shops that have some. With REDIS_URL, the replica is the one in Redis that
// instrumentation.ts gives every instance; without, this server's own file.
export const { GET, POST } = createRevalidateRoute()
