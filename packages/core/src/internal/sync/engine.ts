import { BadRequestError, ValidationError, VerifiedReviewsError } from '../base/errors.ts'
import { singleFlight } from '../base/single-flight.ts'
import { isIsoDateTime } from '../base/validate.ts'
import { READ_AHEAD } from '../context/read-ahead.ts'
import { KEEP_RAW_JSON, releaseRawJson } from '../transport/json-items.ts'
import { type KeptForm, sameKeptForm } from './kept-review.ts'
import { askAhead } from './page-ahead.ts'
import { changesOfPage, type WalkTally } from './page-changes.ts'
import type { ReviewStore, SyncCheckpoint, SyncedReview } from './store.ts'

/** One page of a list operation, as much of it as a sync needs. */
export interface SyncPage<T> {
  /**
   * The page's reviews. The sync empties this array once they are stored, before it waits for the next
   * page, so that they do not outlive their page: a lister hands over a new array with each page.
   */
  data: T[]
  hasNextPage(): boolean
  getNextPage(): Promise<SyncPage<T>>
  /** Cursor of the next page, saved in the checkpoint so that an interrupted run resumes there. */
  nextCursor?: string | undefined
}

/** Parameters a sync sends to a review list operation. */
export interface SyncListParams<F extends string> {
  limit?: number
  sort?: readonly F[]
  desc?: readonly F[]
  cursor?: string
  /** Incremental runs that filter by date: only reviews published at or after the watermark. */
  publish_date?: { gte: string }
}

/**
 * The request options a sync sends with every page: `cache: false`, so that a client with a cache
 * (`createClient({ cache })`) neither answers a sync from it (an incremental run would miss the reviews
 * published since the page was cached) nor fills it with every page of the account's reviews. A wrapper
 * passes them on as they are: they also ask this package's client to keep each review's JSON as the API
 * sent it, which the SQLite store writes without making it again (a wrapper that changes reviews returns
 * new objects rather than changing those of the page), and, in a full walk, to ask for each next page as
 * soon as the page's headers name it (one page ahead of the walk at most).
 */
export interface SyncRequestOptions {
  cache: false
}

/** A review list operation, such as `client.products.reviews` or `client.brands.reviews`. */
export interface ReviewLister<T, F extends string = 'publish_date'> {
  /** Called with {@link SyncRequestOptions}, which a wrapper passes on to the client's operation. */
  list(params: SyncListParams<F>, options?: SyncRequestOptions): PromiseLike<SyncPage<T>>
}

// The symbol asks this package's client to keep each review's JSON for the store (`rawJson`).
const SYNC_REQUEST: SyncRequestOptions = Object.freeze({ cache: false, [KEEP_RAW_JSON]: true })
// A full walk reads every page: the client also asks for each next page from its page's headers, while
// the body is read and parsed (an incremental walk may stop on any page, and asks only once it knows).
const FULL_SYNC_REQUEST: SyncRequestOptions = Object.freeze({
  cache: false,
  [KEEP_RAW_JSON]: true,
  [READ_AHEAD]: true,
})

/** How a run chooses between a full and an incremental sync. */
export type SyncMode = 'auto' | 'full' | 'incremental'

/** How one kind of sync walks, set by `syncProductReviews` and `syncBrandReviews`, not by callers. */
export interface SyncWalk<T> {
  /**
   * Whether incremental runs send `publish_date.gte=<watermark>`, so that a run never walks past the
   * watermark. An API that refuses the filter (400) is asked again without it, on the spec's recipe.
   */
  sinceWatermark: boolean
  /**
   * The form reviews are stored in: each review of a page becomes `review(it)` before it is compared
   * with the held one (kept in the same form) and stored; `form` is recorded in the checkpoint. Absent:
   * reviews are stored whole.
   */
  keep?: { form: KeptForm; review: (review: T) => T } | undefined
}

/** Options shared by `syncProductReviews` and `syncBrandReviews`. */
export interface SyncRunOptions {
  /**
   * Reviews per call, 1 to 200.
   * @default 200
   */
  limit?: number
  /**
   * `auto` resumes an interrupted run, else runs a full sync until one has completed and incremental
   * syncs after that; `full` starts a full sync over (which also finds held reviews that changed);
   * `incremental` requires a completed full sync.
   * @default 'auto'
   */
  mode?: SyncMode
  /** Stops the run between two pages; the checkpoint lets the next run resume there. */
  signal?: AbortSignal
  /**
   * What `auto` does with a store that holds the reviews of named products only (`products` in its
   * checkpoint, as a build that names its products leaves it): `false` runs a full sync of the account;
   * `true` goes on from its watermark, walking the reviews published since (of every product, one call
   * when fewer than 200 arrived), and keeps it a store of those products.
   * @default false
   */
  continueNamed?: boolean
  /**
   * Clock for `completedAt` in the checkpoint.
   * @default () => new Date()
   */
  now?: () => Date
}

/** What one run did. */
export interface SyncOutcome {
  /** Which sync ran: a full walk oldest first, or newest first up to the reviews already held. */
  mode: 'full' | 'incremental'
  /** Reviews not held before, over the whole sync (including a run it resumed). */
  newReviews: number
  /** Held reviews that came back different, over the whole sync. */
  updatedReviews: number
  /** Products (or shops) whose new or updated reviews this sync stored, or whose removed ones it took out, sorted. */
  affected: string[]
  /**
   * Held reviews a full sync did not see (removed upstream, which the API does not list) and took out of
   * a store that can remove them; 0 for an incremental run, which sees only part of the account, and for
   * a resumed one unless the store marks what each run sees (`markSeen`, as the stores of this package do).
   */
  removedReviews: number
  /** List calls this run made (a resumed run does not count the calls of the run it resumed). */
  calls: number
  /** Whether this run continued an interrupted one from its checkpoint. */
  resumed: boolean
  /**
   * `true` when this run is a full one because the store held reviews kept in another form (other
   * `replicaLanguages`, other kept fields, or whole where they are now trimmed, or the reverse): it
   * stores every review again, and counts those held as updated. Absent otherwise.
   */
  rebuilt?: true
}

interface Run {
  mode: 'full' | 'incremental'
  resumed: boolean
  rebuilt: boolean
  checkpoint: SyncCheckpoint
}

/** Checks the options shared by both syncs, before any call. */
export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new ValidationError([
      { field: 'limit', message: `must be an integer from 1 to 200, got ${String(limit)}` },
    ])
  }
}

// A store that runs one sync at a time: concurrent calls share the run under way.
const running = singleFlight<object, SyncOutcome>('flight', new WeakMap())

/**
 * Runs the spec's synchronization recipe over one review list operation: a full walk sorted by
 * `publish_date` ascending to the last page, then incremental walks newest first that stop at the
 * first held, unchanged review published at or before the watermark.
 */
export function runSync<T extends SyncedReview>(
  lister: ReviewLister<T>,
  store: ReviewStore<T>,
  options: SyncRunOptions,
  walk: SyncWalk<T> = { sinceWatermark: false },
): Promise<SyncOutcome> {
  const limit = options.limit ?? 200
  checkLimit(limit)
  return running.run(store, () => sync(lister, store, limit, options, walk))
}

async function sync<T extends SyncedReview>(
  lister: ReviewLister<T>,
  store: ReviewStore<T>,
  limit: number,
  options: SyncRunOptions,
  walk: SyncWalk<T>,
): Promise<SyncOutcome> {
  options.signal?.throwIfAborted()
  const now = options.now ?? (() => new Date())
  const run = await plan(
    store,
    limit,
    options.mode ?? 'auto',
    options.continueNamed === true,
    walk.keep?.form,
    now,
  )
  // A full run from an empty store writes every review of the account: the store may take them in
  // bulk, and ends that (building what it left out) before the run resolves, whatever its outcome.
  const endBulkLoad =
    run.mode === 'full' && run.checkpoint.fromEmpty === true ? await store.bulkLoad?.() : undefined
  try {
    return await walkRun(lister, store, limit, options, walk, run, now)
  } finally {
    await endBulkLoad?.()
  }
}

/** Walks the pages of one planned run, storing each, and says what the run did. */
async function walkRun<T extends SyncedReview>(
  lister: ReviewLister<T>,
  store: ReviewStore<T>,
  limit: number,
  options: SyncRunOptions,
  walk: SyncWalk<T>,
  run: Run,
  now: () => Date,
): Promise<SyncOutcome> {
  const kept = walk.keep
  const { checkpoint } = run
  const tally: WalkTally = {
    newReviews: checkpoint.newReviews,
    updatedReviews: checkpoint.updatedReviews,
    affected: new Set(checkpoint.affected),
    newest: checkpoint.newest ?? checkpoint.watermark,
  }
  let calls = 0
  // What a full walk of the whole account did not see was removed upstream. A store that marks reviews
  // keeps the run's marks (its generation is in the checkpoint), so that a resumed run knows what the
  // pages before its cursor saw; else the ids are held here, in one run from its first page (a resumed
  // run has not seen the pages before its cursor), which costs some 100 bytes an id.
  const { generation } = checkpoint
  const fromEmpty = checkpoint.fromEmpty === true
  const marking =
    run.mode === 'full' &&
    !fromEmpty &&
    generation !== undefined &&
    store.markSeen !== undefined &&
    store.removeUnseen !== undefined
  const seen =
    run.mode === 'full' && !fromEmpty && !marking && !run.resumed && store.removeExcept !== undefined
      ? new Set<string>()
      : undefined

  const params: SyncListParams<'publish_date'> =
    run.mode === 'full'
      ? { limit, sort: ['publish_date'] }
      : { limit, sort: ['publish_date'], desc: ['publish_date'] }
  const since = checkpoint.watermark
  // A store of named products' reviews walks only what is newer than its watermark: its stop rule (the
  // first held review) would not stop among the other products' reviews, which it does not hold.
  const partial = checkpoint.products !== undefined
  const filtered =
    run.mode === 'incremental' &&
    (walk.sinceWatermark || partial) &&
    since !== undefined &&
    isIsoDateTime(since)
  if (filtered) params.publish_date = { gte: since }
  const stopAt = run.mode === 'incremental' ? checkpoint.watermark : undefined
  const first = () =>
    lister.list(
      checkpoint.cursor === undefined ? params : { ...params, cursor: checkpoint.cursor },
      stopAt === undefined ? FULL_SYNC_REQUEST : SYNC_REQUEST,
    )
  calls++
  let page: SyncPage<T> | undefined
  try {
    page = await first()
  } catch (error) {
    // An API without the filter (or a cursor issued without it) gets the spec's recipe instead.
    if (!filtered || partial || !(error instanceof BadRequestError)) throw error
    delete params.publish_date
    calls++
    page = await first()
  }

  for (;;) {
    // A full walk reads every page to the last: the next one is asked for now, and travels while this
    // one is compared and stored. An incremental walk may stop on this page, and asks for the next only
    // once it knows. Not once aborted: the page in hand is still stored, and the run stops after it.
    let next: Promise<SyncPage<T>> | undefined
    if (stopAt === undefined && page.hasNextPage() && options.signal?.aborted !== true) {
      calls++
      next = (await askAhead(() => (page as SyncPage<T>).getNextPage())).next
    }
    if (seen !== undefined) for (const review of page.data) seen.add(review.review_id)
    // Marked before the checkpoint moves past the page: a run stopped in between walks the page again.
    if (marking)
      await store.markSeen?.(
        page.data.map((review) => review.review_id),
        generation as number,
      )
    // The held reviews are in the kept form: the page's are compared in it too, so an unchanged review
    // compares equal and an incremental walk stops where it did with whole reviews.
    const reviews = kept === undefined ? page.data : page.data.map(kept.review)
    const { changed, reachedHeld } = await changesOfPage(reviews, store, stopAt, tally)
    checkpoint.newReviews = tally.newReviews
    checkpoint.updatedReviews = tally.updatedReviews
    // Sorted once, at the end of the run: sorting every page would cost pages x products. The set only
    // grows: a list of its size holds the same products, and is not made again.
    if (checkpoint.affected.length !== tally.affected.size) checkpoint.affected = [...tally.affected]
    const { newest } = tally
    if (newest !== undefined) checkpoint.newest = newest

    const more = !reachedHeld && page.hasNextPage()
    if (!more) {
      const done: SyncCheckpoint = {
        phase: 'idle',
        limit,
        newReviews: checkpoint.newReviews,
        updatedReviews: checkpoint.updatedReviews,
        affected: checkpoint.affected.sort(),
        completedAt: now().toISOString(),
        lastMode: run.mode,
      }
      if (newest !== undefined) done.watermark = newest
      // Still the named products' store: the other products' new reviews are held, not their older ones.
      if (partial) done.products = checkpoint.products
      if (kept !== undefined) done.kept = kept.form
      if (generation !== undefined) done.generation = generation
      if (checkpoint.sweep !== undefined) done.sweep = checkpoint.sweep
      await store.putMany(changed, done)
      let removedReviews = 0
      const remove = marking
        ? () => store.removeUnseen?.(generation as number)
        : seen !== undefined
          ? () => store.removeExcept?.(seen)
          : undefined
      if (remove !== undefined) {
        const before = await store.count()
        const groups = (await remove()) ?? []
        removedReviews = before - (await store.count())
        if (groups.length > 0) {
          done.affected = [...new Set([...done.affected, ...groups])].sort()
          await store.setCheckpoint(done)
        }
      }
      return {
        mode: run.mode,
        newReviews: checkpoint.newReviews,
        updatedReviews: checkpoint.updatedReviews,
        affected: done.affected,
        calls,
        resumed: run.resumed,
        removedReviews,
        ...(run.rebuilt ? { rebuilt: true as const } : {}),
      }
    }

    if (page.nextCursor === undefined) delete checkpoint.cursor
    else checkpoint.cursor = page.nextCursor
    await store.putMany(changed, checkpoint)
    options.signal?.throwIfAborted()
    if (next === undefined) {
      calls++
      next = Promise.resolve(page.getNextPage())
    }
    // Let go of this page's reviews while the next page arrives: reviews that outlive the garbage
    // collector's young generation make V8 grow it, by some 100 MiB at the peak of a long sync.
    changed.length = 0
    releaseRawJson(page.data)
    page.data.length = 0
    reviews.length = 0
    page = undefined
    page = await next
  }
}

/** Which run to make, from the saved checkpoint and the requested mode. */
async function plan<T extends SyncedReview>(
  store: ReviewStore<T>,
  limit: number,
  mode: SyncMode,
  continueNamed: boolean,
  kept: KeptForm | undefined,
  now: () => Date,
): Promise<Run> {
  const saved = await store.getCheckpoint()
  // A full run over an empty store sees every review it will hold: it has nothing to mark or remove.
  const empty = async () => (await store.count()) === 0
  const fresh = async (phase: 'full' | 'incremental', rebuilt = false): Promise<Run> => {
    const checkpoint: SyncCheckpoint = { phase, limit, newReviews: 0, updatedReviews: 0, affected: [] }
    if (phase === 'full' && (await empty())) checkpoint.fromEmpty = true
    // A full run's own stamp, later than any before (marks of earlier runs never equal it); an
    // incremental run keeps the last full run's.
    const last = saved?.generation
    if (phase === 'full') checkpoint.generation = Math.max(now().getTime(), (last ?? 0) + 1)
    else if (last !== undefined) checkpoint.generation = last
    if (saved?.sweep !== undefined) checkpoint.sweep = saved.sweep
    // The last completed run stays on record, so that an abandoned run does not forget it.
    if (saved?.watermark !== undefined) checkpoint.watermark = saved.watermark
    if (saved?.completedAt !== undefined) checkpoint.completedAt = saved.completedAt
    if (saved?.lastMode !== undefined) checkpoint.lastMode = saved.lastMode
    if (phase === 'incremental' && saved?.products !== undefined) checkpoint.products = saved.products
    // Recorded from the first page on, so that a rebuild interrupted and resumed is not started again.
    if (kept !== undefined) checkpoint.kept = kept
    return { mode: phase, resumed: false, rebuilt, checkpoint }
  }
  // Reviews held in another form: every one is stored again, whatever the mode asked, which only a
  // full walk reaches (an incremental one stops at the first held review).
  if (saved !== undefined && !sameKeptForm(saved.kept, kept)) return fresh('full', true)
  if (mode === 'full') return fresh('full')
  if (saved !== undefined && saved.phase !== 'idle' && (mode === 'auto' || saved.phase === mode)) {
    const checkpoint: SyncCheckpoint = { ...saved, limit }
    // A cursor is bound to the limit it was issued with; with another limit the walk starts over.
    if (saved.limit !== limit) delete checkpoint.cursor
    return { mode: saved.phase, resumed: true, rebuilt: false, checkpoint }
  }
  // A store of some products' reviews (`products`) misses the others: the account's sync starts over,
  // unless asked to go on from its watermark (it then stays a store of those products).
  const named = saved?.products !== undefined
  if (saved?.completedAt !== undefined && (!named || (continueNamed && saved.watermark !== undefined)))
    return fresh('incremental')
  if (mode === 'incremental') {
    throw new VerifiedReviewsError(
      saved?.products === undefined
        ? 'An incremental sync needs a completed full sync first: run with mode full or auto.'
        : 'The store holds the reviews of some products only: run a full sync (mode full or auto) first, or pass continueNamed.',
    )
  }
  return fresh('full')
}
