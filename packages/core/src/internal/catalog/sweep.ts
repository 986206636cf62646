import type { Language, ProductReview } from '../../types/published.ts'
import { chunks } from '../base/concurrency.ts'
import { singleFlight } from '../base/single-flight.ts'
import { MAX_VALUES } from '../context/query-string.ts'
import { changesOfPage, type WalkTally } from '../sync/page-changes.ts'
import { sameJson } from '../sync/same-json.ts'
import type { ReviewStore, SweepStamp } from '../sync/store.ts'
import type { ProductSummaryStore } from '../sync/summary-store.ts'
import { productWalk } from '../sync/sync-reviews.ts'
import type { ReviewPagesClient } from './fetch-reviews.ts'
import type { SummaryClient } from './fetch-summaries.ts'
import { reviewCount } from './review-plan.ts'

/** A day, in milliseconds: how often a replica is swept, and how long a product resynced is left alone. */
export const SWEEP_INTERVAL = 24 * 60 * 60 * 1000

/** What a sweep needs of a client: `createClient()` satisfies it. */
export type SweepClient = SummaryClient & ReviewPagesClient

/** Options of {@link sweepReplica}. */
export interface SweepReplicaOptions {
  client: SweepClient
  /** The replica: its review store (with the sync's checkpoint, where the sweep's stamp is kept) and summaries. */
  replica: { reviews: ReviewStore<ProductReview>; summaries: ProductSummaryStore }
  /** The languages the replica keeps its reviews in (`replicaLanguages` of its sync). */
  replicaLanguages?: readonly Language[] | undefined
  /**
   * Clock.
   * @default () => new Date()
   */
  now?: () => Date
  signal?: AbortSignal | undefined
}

/** What {@link sweepReplica} did. */
export interface SweepReport {
  /** Whether it ran: false when the last sweep (or the build's summaries) is less than a day old, or nothing was ever synced. */
  swept: boolean
  /** API calls in all: `summaryCalls + resyncCalls`. */
  calls: number
  /** `products.list` calls: ⌈held products / 200⌉. */
  summaryCalls: number
  /** `products.reviews.list` calls of the products resynced (200 reviews a call, 200 products a list of ids). */
  resyncCalls: number
  /** The products whose summaries were fetched: every product the replica holds. */
  products: number
  /** Products whose summary counts other reviews than the replica holds, sorted. */
  disagreeing: string[]
  /** Those whose reviews were fetched again (not resynced in the last day), sorted. */
  resynced: string[]
  /** Reviews of the resynced products the replica did not hold. */
  newReviews: number
  /** Held reviews of the resynced products that came back different. */
  updatedReviews: number
  /** Held reviews of the resynced products that the API no longer lists, taken out. */
  removedReviews: number
  /**
   * Products whose summary (rating, counts, histogram, criteria, AI summary) came back other than the
   * replica held it, or that had none held, sorted: their pages show it, so they are among the affected.
   */
  changedSummaries: string[]
  /**
   * The pages to revalidate, sorted: the resynced products (and a product a resynced review moved from)
   * and the products whose summary changed.
   */
  affectedProductIds: string[]
}

/**
 * Once a day, compares the replica with the API where the sync cannot see: reviews removed or edited
 * upstream, which the API does not list as changed. It fetches the summaries of every product the
 * replica holds (200 a call: ⌈n/200⌉ calls) and stores them, so that ratings stay fresh (a product whose
 * summary changed is among the affected, since its page shows it); compares each
 * summary's review count (`ratings.count_total`) with the reviews the replica holds for that product;
 * and fetches again the reviews of each product that disagrees (lists of 200 ids, 200 reviews a call, as
 * a build fetches named products), unless a sweep did so in the last day, replacing them in the store
 * (what the API no longer lists is removed). An edit that leaves the count as it was is not seen here:
 * the next full sync (`mode: 'full'`) compares every review.
 *
 * The stamp (`sweep` in the sync's checkpoint) says when the summaries were last fetched for every held
 * product: a build's summaries count as a sweep, so the first sync after a deploy sweeps nothing. A
 * replica without a completed sync is not swept. Concurrent calls for one store share one sweep.
 */
export function sweepReplica(options: SweepReplicaOptions): Promise<SweepReport> {
  return sweeping.run(options.replica.reviews, () => sweep(options))
}

// One sweep of a store at a time: concurrent calls (the revalidate route, a render's catch-up) share it.
const sweeping = singleFlight<object, SweepReport>('flight', new WeakMap())

async function sweep(options: SweepReplicaOptions): Promise<SweepReport> {
  const { client, replica, signal } = options
  const store = replica.reviews
  const now = (options.now ?? (() => new Date()))()
  const report: SweepReport = {
    swept: false,
    calls: 0,
    summaryCalls: 0,
    resyncCalls: 0,
    products: 0,
    disagreeing: [],
    resynced: [],
    newReviews: 0,
    updatedReviews: 0,
    removedReviews: 0,
    changedSummaries: [],
    affectedProductIds: [],
  }
  const checkpoint = await store.getCheckpoint()
  if (checkpoint?.completedAt === undefined) return report
  const last = checkpoint.sweep
  if (last !== undefined && now.getTime() - Date.parse(last.at) < SWEEP_INTERVAL) return report
  report.swept = true

  // Products resynced within the last day are left alone; older records are forgotten.
  const resynced: SweepStamp['resynced'] = {}
  for (const [id, at] of Object.entries(last?.resynced ?? {})) {
    if (now.getTime() - Date.parse(at) < SWEEP_INTERVAL) resynced[id] = at
  }
  const held = [...new Set([...(await store.keys()), ...(checkpoint.products ?? [])])].sort()
  report.products = held.length
  const affected = new Set<string>()
  const toResync: string[] = []
  for (const batch of chunks(held, MAX_VALUES)) {
    signal?.throwIfAborted()
    // At most 200 ids give at most 200 summaries: one page at the API's largest page size.
    const page = await client.products.list({ product_variation_id: batch, limit: MAX_VALUES })
    report.summaryCalls++
    const fetched = new Map(page.data.map((summary) => [summary.product_variation_id, summary]))
    const counts = await countsOf(store, batch)
    const before = await replica.summaries.getMany(batch)
    await replica.summaries.putMany([...fetched.values()])
    // A summary the API no longer gives is forgotten, so that the product is named changed once, not daily.
    const unsummarized = batch.filter((id, i) => before[i] !== undefined && !fetched.has(id))
    if (unsummarized.length > 0) await replica.summaries.removeMany?.(unsummarized)
    batch.forEach((id, i) => {
      const summary = fetched.get(id)
      // A page shows its product's summary: a changed one (the 12-month figures move by the day) is a change
      // of the page, as is one the API no longer gives.
      if (!sameJson(before[i], summary)) {
        report.changedSummaries.push(id)
        affected.add(id)
      }
      // A product the API no longer summarizes has no reviews there.
      if (reviewCount(summary) === counts[i]) return
      report.disagreeing.push(id)
      if (resynced[id] === undefined) toResync.push(id)
    })
  }

  const keep = productWalk(options.replicaLanguages).keep
  const tally: WalkTally = { newReviews: 0, updatedReviews: 0, affected: new Set(), newest: undefined }
  for (const ids of chunks(toResync, MAX_VALUES)) {
    signal?.throwIfAborted()
    const seen = new Set<string>()
    let page = await client.products.reviews.list(
      { product_variation_id: ids, limit: MAX_VALUES, sort: ['publish_date'], desc: ['publish_date'] },
      { cache: false },
    )
    report.resyncCalls++
    for (;;) {
      const reviews = keep === undefined ? page.data : page.data.map(keep.review)
      for (const review of reviews) seen.add(review.review_id)
      const { changed } = await changesOfPage(reviews, store, undefined, tally)
      await store.putMany(changed)
      if (!page.hasNextPage()) break
      signal?.throwIfAborted()
      page = await page.getNextPage()
      report.resyncCalls++
    }
    // What the store holds of these products and the API no longer lists.
    const gone: string[] = []
    for (const id of ids) {
      for (const review of await store.list(id)) if (!seen.has(review.review_id)) gone.push(review.review_id)
    }
    if (gone.length > 0 && store.removeMany !== undefined) {
      const before = await store.count()
      await store.removeMany(gone)
      report.removedReviews += before - (await store.count())
    }
    for (const id of ids) {
      resynced[id] = now.toISOString()
      affected.add(id)
    }
  }
  // A review that moved between products changed the product it left too.
  for (const id of tally.affected) affected.add(id)
  report.newReviews = tally.newReviews
  report.updatedReviews = tally.updatedReviews
  report.resynced = toResync.sort()
  report.disagreeing.sort()
  report.changedSummaries.sort()
  report.calls = report.summaryCalls + report.resyncCalls
  report.affectedProductIds = [...affected].sort()

  // Stamped on the checkpoint as it is now (the sync may have saved one since it was read).
  const current = (await store.getCheckpoint()) ?? checkpoint
  await store.setCheckpoint({ ...current, sweep: { at: now.toISOString(), resynced } })
  return report
}

/** The reviews the store holds for each product, through `countByKey` when it has one. */
async function countsOf(store: ReviewStore<ProductReview>, ids: readonly string[]): Promise<number[]> {
  if (store.countByKey !== undefined) return store.countByKey(ids)
  const counts: number[] = []
  for (const id of ids) counts.push((await store.list(id)).length)
  return counts
}
