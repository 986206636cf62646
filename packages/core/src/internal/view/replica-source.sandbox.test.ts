import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReview, ReviewRate } from '../../types/published.ts'
import { continuationCursor } from '../cursor/continuation.ts'
import { REVIEW_SORTS, type ReviewView } from '../cursor/review-query.ts'
import { cursorSignerFromSecret } from '../cursor/signed-cursor.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { createSqliteReviewStore, type SqliteReviewStore } from '../sync/sqlite-store.ts'
import type { ReviewStore } from '../sync/store.ts'
import { createMemorySummaryStore } from '../sync/summary-store.ts'
import { syncProductReviews } from '../sync/sync-reviews.ts'
import { apiSource, loadProductView, replicaSource } from './product-view.ts'

const sb = sandboxForFile({ seed: 1 })
const signer = cursorSignerFromSecret('a secret of the replica tests')
let dir: string
let sqlite: SqliteReviewStore
const memory = createMemoryReviewStore()
let products: string[]

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-replica-'))
  sqlite = createSqliteReviewStore(join(dir, 'replica.sqlite'))
  await syncProductReviews({ client: sb.client(), store: sqlite })
  await syncProductReviews({ client: sb.client(), store: memory })
  // The products with the most reviews: their views span several pages in every order.
  const keys = await sqlite.keys()
  const counted = await Promise.all(keys.map(async (key) => [key, (await sqlite.list(key)).length] as const))
  products = counted
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([key]) => key)
})
afterAll(async () => {
  await sqlite.close()
  await rm(dir, { recursive: true, force: true })
})

/** Every page of a view, walked forwards from the first page: the review ids of each. */
async function walk(
  source: ReturnType<typeof apiSource>,
  ids: readonly string[],
  view: ReviewView,
  limit: number,
) {
  const pages: string[][] = []
  let cursor: string | undefined
  do {
    const page = await loadProductView({ source, ids, view: { ...view, cursor }, limit, signer })
    pages.push(page.data.map((review) => review.review_id))
    cursor = page.nextCursor
  } while (cursor !== undefined && pages.length < 100)
  return pages
}

/** The API's walks, asked once for both stores. */
const apiWalks = new Map<string, Promise<string[][]>>()
function apiWalk(ids: readonly string[], view: ReviewView, limit: number) {
  const key = JSON.stringify([ids, view, limit])
  let walked = apiWalks.get(key)
  if (walked === undefined) {
    walked = walk(apiSource(sb.client()), ids, view, limit)
    apiWalks.set(key, walked)
  }
  return walked
}

const RATE_FILTERS: ReviewRate[][] = [[], [5], [1, 2], [3, 4]]
const stores: [string, () => ReviewStore<ProductReview>][] = [
  ['an SQLite store (indexed)', () => sqlite],
  ['a store without query (sorted in memory)', () => memory],
]

describe.each(stores)('views read from %s', (_name, store) => {
  const replica = () => replicaSource({ reviews: store(), summaries: createMemorySummaryStore() })

  it('give the same reviews in the same order as the API, page after page, in every order and rate filter', async () => {
    for (const sort of REVIEW_SORTS) {
      for (const rates of RATE_FILTERS) {
        const view = { sort, rates }
        const fromApi = await apiWalk([products[0] as string], view, 12)
        const fromReplica = await walk(replica(), [products[0] as string], view, 12)
        expect(fromReplica, `${sort} ${rates.join(',')}`).toEqual(fromApi)
      }
    }
  })

  it('go back a page with the previous cursor to the same reviews', async () => {
    const ids = [products[0] as string]
    const view: ReviewView = { sort: 'highest', rates: [] }
    const first = await loadProductView({ source: replica(), ids, view, limit: 5, signer })
    const second = await loadProductView({
      source: replica(),
      ids,
      view: { ...view, cursor: first.nextCursor },
      limit: 5,
      signer,
    })
    expect(second.previousCursor).toBeDefined()
    const back = await loadProductView({
      source: replica(),
      ids,
      view: { ...view, cursor: second.previousCursor },
      limit: 5,
      signer,
    })
    expect(back.data.map((r) => r.review_id)).toEqual(first.data.map((r) => r.review_id))
    expect(back.previousCursor).toBeUndefined()
  })

  it('list the variations of a group together, newest first, as the API does', async () => {
    const ids = products.slice(0, 2)
    const view: ReviewView = { sort: 'newest', rates: [] }
    expect(await walk(replica(), ids, view, 10)).toEqual(await apiWalk(ids, view, 10))
  })

  it('go on from a build page’s continuation cursor where that page ended', async () => {
    const ids = [products[0] as string]
    const all = await store().list(ids[0] as string)
    const cursor = await signer.sign(
      { kind: 'product', id: ids[0] as string, sort: 'newest', rates: [], limit: 4 },
      continuationCursor(all.slice(0, 4)),
    )
    const page = await loadProductView({
      source: replica(),
      ids,
      view: { sort: 'newest', rates: [], cursor },
      limit: 4,
      signer,
    })
    expect(page.data.map((r) => r.review_id)).toEqual(all.slice(4, 8).map((r) => r.review_id))
  })

  it('show the first page for a cursor the replica does not hold (an API cursor)', async () => {
    const ids = [products[0] as string]
    const view: ReviewView = { sort: 'oldest', rates: [] }
    const api = await loadProductView({ source: apiSource(sb.client()), ids, view, limit: 3, signer })
    const page = await loadProductView({
      source: replica(),
      ids,
      view: { ...view, cursor: api.nextCursor },
      limit: 3,
      signer,
    })
    expect(page.cursor).toBeUndefined()
    expect(page.data.map((r) => r.review_id)).toEqual(api.data.map((r) => r.review_id))
  })
})
