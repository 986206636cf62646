import { createRevalidateRoute } from '@verified-reviews/next'
import { revalidateStores } from '@/lib/redis'

// Called by a scheduler with `Authorization: Bearer $VERIFIED_REVIEWS_REVALIDATE_SECRET` (or Vercel Cron's
// CRON_SECRET): syncs new reviews and revalidates only the products and shops that have some. With
// REDIS_URL, the reviews it syncs are kept in Redis, shared by every instance (lib/redis.ts).
export const { GET, POST } = createRevalidateRoute(revalidateStores())
