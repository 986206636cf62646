import { type BrandReview, type ProductReview, readEnvironment } from '@verified-reviews/core'
import {
  type BrandReviewsClient,
  type ProductReviewsClient,
  type ReviewStore,
  type SweepReport,
  type SyncMode,
  syncBrandReviews,
  syncProductReviews,
} from '@verified-reviews/core/sync'
import { revalidateTag } from 'next/cache.js'
import { freshReviewsClient, sharedClientState } from './clients.ts'
import { jsonAnswer as json } from './internal/json-answer.ts'
import {
  bypassLocalReplica,
  type ReplicaSyncReport,
  replicaPath,
  siteReplica,
  syncBrandReplica,
  syncReplica,
} from './internal/replica.ts'
import { scheduledFailure } from './internal/scheduled-failure.ts'
import { schedulerCheck } from './internal/secret.ts'
import { openBrandStore, openProductStore, type ReviewStoreOption } from './internal/stores.ts'
import { reviewTags } from './tags.ts'

export type { ReviewStoreOption } from './internal/stores.ts'

/** How long Next.js may serve revalidated data stale: a `cacheLife` profile name or `{ expire }` in seconds. */
export type RevalidateProfile = string | { expire?: number }

/** Options of {@link createRevalidateRoute}. */
export interface RevalidateRouteOptions {
  /**
   * The shared secret a caller sends as `Authorization: Bearer <secret>`. Vercel Cron's `CRON_SECRET`
   * is accepted too when it is set. Without any secret every call is refused.
   * @default VERIFIED_REVIEWS_REVALIDATE_SECRET (read by the core's `readEnvironment`)
   */
  secret?: string
  /**
   * Where the product review sync keeps reviews between calls: `'build'`, `'memory'`, a JSON file path
   * or a `ReviewStore` (see the README).
   * @default 'build'
   */
  store?: ReviewStoreOption<ProductReview>
  /**
   * Whether a `store` of yours (a `ReviewStore` or a JSON file path) that holds no checkpoint yet is first
   * filled from the review store the build prefetch left in `<distDir>/verified-reviews/`, once, so that
   * the first call after a deployment on an empty Redis or database is incremental (see `seedFromBuild`).
   * `false`: such a store starts empty, and the first call walks every review.
   * @default true
   */
  seedFromBuild?: boolean
  /**
   * Whether brand and shop reviews are synced too (revalidating `reviewTags.brand()` and
   * `reviewTags.shop(key)`), and where they are kept; `false` leaves them out. `'build'` keeps them
   * in the site's replica (the server's file, or the one given to `shareClientState`) with the brand and
   * shop statistics (one call when reviews changed or once a day), which `BrandReviews` then reads with
   * no call; a restart or a redeploy goes on incrementally (the build keeps none: the first call of a
   * new replica walks them all). Memory where there is no replica.
   * @default 'build'
   */
  brandStore?: ReviewStoreOption<BrandReview> | false
  /**
   * How long pages may serve the old reviews while they regenerate (the second argument of
   * `revalidateTag`): `'max'` serves the old page once while the new one renders; `{ expire: 0 }` makes
   * the next visitor wait for the new page.
   * @default 'max'
   */
  profile?: RevalidateProfile
  /**
   * The client that syncs.
   * @default the environment's client, without the Next.js data cache
   */
  client?: ProductReviewsClient & BrandReviewsClient
  /**
   * The Next.js build directory, where the build's review store is read (the `'build'` store, and the
   * seeding of yours).
   * @default VERIFIED_REVIEWS_DIST_DIR, else '.next'
   */
  distDir?: string
  /**
   * The function that revalidates a tag.
   * @default revalidateTag from next/cache
   */
  revalidate?: (tag: string, profile: RevalidateProfile) => void
}

/** What a sync did, as the route reports it. */
export interface RevalidateSyncSummary {
  mode: 'full' | 'incremental'
  newReviews: number
  updatedReviews: number
  /** Held reviews a full sync did not see (removed upstream), taken out of the store. */
  removedReviews: number
  calls: number
  /**
   * `true` when the sync was a full one because the store kept its reviews in another form than
   * `VERIFIED_REVIEWS_LANGUAGES` asks (other languages, or whole); absent otherwise.
   */
  rebuilt?: true
  /**
   * The replica's daily sweep, when this call made one: its calls (⌈held products / 200⌉ summaries,
   * plus those of the products synced again), the products whose review count disagreed and were
   * synced again (among `products`), the reviews it took out, and the number of products whose summary
   * changed (also among `products`: their pages show it). Absent otherwise.
   */
  sweep?: { calls: number; resynced: string[]; removedReviews: number; changedSummaries: number }
}

/** The answer of the revalidate route. */
export interface RevalidateRouteBody {
  /** Products whose reviews changed, sorted. */
  products: string[]
  /**
   * Whether the brand's reviews changed, its own (the reviews of no shop) or a shop's: the brand
   * pages' tag, `reviewTags.brand()`, was then revalidated. `false` without the brand sync
   * (`brandStore: false`).
   */
  brand: boolean
  /** Shops whose reviews changed, sorted, each with its tag `reviewTags.shop(key)` revalidated; the brand's own reviews are `brand`. */
  shops: string[]
  /** The tags revalidated, in the order they were. */
  revalidated: string[]
  sync: { products: RevalidateSyncSummary; brands?: RevalidateSyncSummary }
}

/** The handlers of the revalidate route: export them from an `app/…/route.ts`. */
export interface RevalidateRoute {
  GET(request: Request): Promise<Response>
  POST(request: Request): Promise<Response>
}

const MODES: readonly SyncMode[] = ['auto', 'full', 'incremental']

function summary(
  report: Omit<RevalidateSyncSummary, 'sweep'> & { sweep?: SweepReport },
): RevalidateSyncSummary {
  const { sweep } = report
  return {
    mode: report.mode,
    newReviews: report.newReviews,
    updatedReviews: report.updatedReviews,
    removedReviews: report.removedReviews,
    calls: report.calls,
    ...(report.rebuilt === true ? { rebuilt: true as const } : {}),
    ...(sweep === undefined
      ? {}
      : {
          sweep: {
            calls: sweep.calls,
            resynced: sweep.resynced,
            removedReviews: sweep.removedReviews,
            changedSummaries: sweep.changedSummaries.length,
          },
        }),
  }
}

/**
 * The route a scheduler calls to keep review pages fresh (the API has no webhooks), for
 * `app/api/revalidate-reviews/route.ts`:
 *
 * ```ts
 * export const { GET, POST } = createRevalidateRoute()
 * ```
 *
 * Each call (GET for Vercel Cron, or POST) must carry `Authorization: Bearer <secret>`, compared in
 * constant time. It runs an incremental sync of the product reviews (and of the brand reviews), then
 * calls `revalidateTag` for the products and shops whose reviews changed, and nothing else, and answers
 * what it revalidated. `?mode=full` runs a full sync, which also finds edited reviews and takes out
 * those removed upstream (schedule one nightly). Concurrent calls share one sync.
 */
export function createRevalidateRoute(options: RevalidateRouteOptions = {}): RevalidateRoute {
  let productStore: Promise<ReviewStore<ProductReview>> | undefined
  let brandStore: ReviewStore<BrandReview> | undefined
  const check = schedulerCheck('revalidate route', options.secret)
  const ownStore = options.store === undefined || options.store === 'build'
  // Reviews synced into a store of the user's never reach this server's own replica: renders read the API.
  if (!ownStore) bypassLocalReplica()

  const handle = async (request: Request): Promise<Response> => {
    const refused = await check(request)
    if (refused !== undefined) return refused

    const modeText = new URL(request.url).searchParams.get('mode') ?? 'auto'
    if (!(MODES as readonly string[]).includes(modeText)) {
      return json(400, { error: { message: `mode must be one of ${MODES.join(', ')}`, field: 'mode' } })
    }
    const mode = modeText as SyncMode

    const client = options.client ?? freshReviewsClient()
    const revalidate = options.revalidate ?? revalidateTag
    const profile = options.profile ?? 'max'
    const revalidated: string[] = []
    const apply = (tags: string[]) => {
      for (const tag of tags) {
        revalidate(tag, profile)
        revalidated.push(tag)
      }
    }
    let products: ReplicaSyncReport | undefined
    try {
      // The site's replica, which the renders read: the store the default `'build'` syncs into (the
      // shared one of `shareClientState`, else this server's file).
      const replica = await siteReplica(options.distDir, { create: ownStore })
      const isLocal = replica !== undefined && sharedClientState().replica === undefined
      productStore ??= (
        ownStore && replica !== undefined
          ? Promise.resolve(replica.reviews)
          : openProductStore(options.store ?? 'build', {
              distDir: options.distDir,
              seed: options.seedFromBuild,
            })
      ).catch((error: unknown) => {
        productStore = undefined
        throw error
      })
      // A build that named its products left their reviews: the route goes on from there. The changed
      // products' summaries go to the replica too (200 a call), before their pages render.
      const store = await productStore
      products =
        replica === undefined
          ? await syncProductReviews({
              client,
              store,
              mode,
              continueNamed: true,
              replicaLanguages: readEnvironment(process.env).replicaLanguages,
            })
          : await syncReplica(replica, client, store, mode)
      // Revalidated at once: the store now holds these reviews, so a later failure must not lose them.
      apply(products.affectedProductIds.map(reviewTags.product))

      let brands: Awaited<ReturnType<typeof syncBrandReviews>> | undefined
      if (options.brandStore !== false) {
        // Kept beside the server's replica by default, so that a restart goes on incrementally.
        const option = options.brandStore ?? 'build'
        if (option === 'build' && ownStore && replica?.brands !== undefined) {
          // The replica's brand part, which the shop page reads, with the statistics it shows.
          brands = await syncBrandReplica(replica.brands, client, mode)
        } else {
          brandStore ??= openBrandStore(
            option,
            ownStore && isLocal ? await replicaPath(options.distDir) : undefined,
          )
          brands = await syncBrandReviews({ client, store: brandStore, mode })
        }
        const shops = brands.affectedShopKeys
        apply([
          ...(shops.length > 0 ? [reviewTags.brand()] : []),
          ...shops.filter((key) => key !== '').map(reviewTags.shop),
        ])
      }

      const body: RevalidateRouteBody = {
        products: products.affectedProductIds,
        // The brand's own reviews have the shop key '': said as `brand`, not as a shop nobody can name.
        brand: (brands?.affectedShopKeys.length ?? 0) > 0,
        shops: brands?.affectedShopKeys.filter((key) => key !== '') ?? [],
        revalidated,
        sync: { products: summary(products), ...(brands === undefined ? {} : { brands: summary(brands) }) },
      }
      return json(200, body)
    } catch (error) {
      return json(502, {
        error: { message: scheduledFailure('a review sync failed', error) },
        products: products?.affectedProductIds ?? [],
        revalidated,
      })
    }
  }

  return { GET: handle, POST: handle }
}
