import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReview } from '../../types/published.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import type { ReviewStore } from '../sync/store.ts'
import { createMemorySummaryStore } from '../sync/summary-store.ts'
import { syncProductReviews } from '../sync/sync-reviews.ts'
import { type SweepClient, sweepReplica } from './sweep.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const LANGUAGES = ['en', 'fr'] as const
const HOUR = 3_600_000
const T0 = Date.parse('2030-01-01T00:00:00Z')
const at = (ms: number) => () => new Date(ms)

async function calls(): Promise<Record<string, number>> {
  const { operations } = await sb.stats()
  await sb.admin('DELETE', 'stats')
  return { list: operations['products.list'] ?? 0, reviews: operations['products.reviews.list'] ?? 0 }
}

/** A replica synced from the sandbox (reviews kept in two languages), its calls counted from there. */
async function synced(
  store: ReviewStore<ProductReview> = createMemoryReviewStore(),
  options: { summaries?: boolean } = {},
) {
  const client = sb.client()
  const replica = { reviews: store, summaries: createMemorySummaryStore() }
  const sync = () => syncProductReviews({ client, store, replicaLanguages: LANGUAGES })
  await sync()
  const sweep = (now: number, swept: SweepClient = client) =>
    sweepReplica({ client: swept, replica, replicaLanguages: LANGUAGES, now: at(now) })
  // The summaries a build leaves (unless `summaries: false`): fetched by a sweep two days before T0.
  if (options.summaries !== false) await sweep(T0 - 48 * HOUR)
  await calls()
  return { client, replica, store, sync, sweep }
}

describe('sweepReplica against the sandbox', () => {
  it("finds every summary's review count equal to the reviews held on an unchanged account, in ⌈n/200⌉ calls", async () => {
    const { replica, store, sweep } = await synced(undefined, { summaries: false })
    const products = (await store.keys()).length
    const report = await sweep(T0)
    // No summary was held: every product's is new, and its page shows it.
    const held = [...(await store.keys())].sort()
    expect(report).toMatchObject({
      swept: true,
      products,
      disagreeing: [],
      resynced: [],
      summaryCalls: Math.ceil(products / 200),
      resyncCalls: 0,
      calls: Math.ceil(products / 200),
      changedSummaries: held,
      affectedProductIds: held,
    })
    expect(await calls()).toEqual({ list: Math.ceil(products / 200), reviews: 0 })
    // A day later nothing changed: no page to revalidate.
    expect(await sweep(T0 + 25 * HOUR)).toMatchObject({
      swept: true,
      changedSummaries: [],
      affectedProductIds: [],
    })
    await calls()
    // The summaries are stored: every held product has one, its count the reviews held.
    const ids = await store.keys()
    const summaries = await replica.summaries.getMany(ids)
    expect(summaries.every((summary) => summary !== undefined)).toBe(true)
    const counts = await Promise.all(ids.map(async (id) => (await store.list(id)).length))
    expect(summaries.map((summary) => summary?.ratings.count_total)).toEqual(counts)
  })

  it("names a product whose held summary differs from the API's (its page shows it), and only that one", async () => {
    const { replica, store, sweep } = await synced()
    const [summary] = await replica.summaries.getMany(['SKU-010'])
    expect(summary).toBeDefined()
    if (summary === undefined) return
    // The replica holds a summary the API has since moved from (the 12-month figures move by the day).
    await replica.summaries.putMany([{ ...summary, ratings: { ...summary.ratings, average: 1.2 } }])
    const report = await sweep(T0 + 25 * HOUR)
    expect(report).toMatchObject({ disagreeing: [], resynced: [], changedSummaries: ['SKU-010'] })
    expect(report.affectedProductIds).toEqual(['SKU-010'])
    expect((await replica.summaries.getMany(['SKU-010']))[0]).toEqual(summary)
    expect((await store.keys()).length).toBeGreaterThan(1)
  })

  it('forgets the summary of a product the API no longer summarizes: named changed once, not every day', async () => {
    const { client, replica, sweep } = await synced()
    expect((await replica.summaries.getMany(['SKU-010']))[0]).toBeDefined()
    // An API that has stopped summarizing SKU-010 (its product taken off the account's catalogue).
    const without: SweepClient = {
      products: {
        reviews: client.products.reviews,
        list: async (params) => {
          const page = await client.products.list(params)
          page.data.splice(
            page.data.findIndex((summary) => summary.product_variation_id === 'SKU-010'),
            1,
          )
          return page
        },
      },
    }
    const first = await sweep(T0 + 25 * HOUR, without)
    expect(first.changedSummaries).toEqual(['SKU-010'])
    expect(first.affectedProductIds).toContain('SKU-010')
    expect((await replica.summaries.getMany(['SKU-010']))[0]).toBeUndefined()
    // The next day, nothing about its summary has changed: its page is not revalidated again.
    const next = await sweep(T0 + 50 * HOUR, without)
    expect(next.swept).toBe(true)
    expect(next.changedSummaries).toEqual([])
  })

  it('takes a review removed upstream out of the replica, which the sync does not see, and names its product', async () => {
    const { store, sync, sweep } = await synced()
    const products = (await store.keys()).length
    const [gone] = await store.list('SKU-007')
    const id = gone?.review_id as string
    const held = (await store.list('SKU-007')).length
    await sb.admin('DELETE', `product-reviews/${id}`)
    expect(await sync()).toMatchObject({ mode: 'incremental', newReviews: 0, removedReviews: 0, calls: 1 })
    expect(await store.has(id)).toBe(true)
    await calls()

    const report = await sweep(T0)
    const resyncCalls = Math.ceil((held - 1) / 200)
    expect(report).toMatchObject({
      swept: true,
      disagreeing: ['SKU-007'],
      resynced: ['SKU-007'],
      removedReviews: 1,
      newReviews: 0,
      updatedReviews: 0,
      affectedProductIds: ['SKU-007'],
      summaryCalls: Math.ceil(products / 200),
      resyncCalls,
      calls: Math.ceil(products / 200) + resyncCalls,
    })
    expect(await calls()).toEqual({ list: Math.ceil(products / 200), reviews: resyncCalls })
    expect(await store.has(id)).toBe(false)
    expect((await store.list('SKU-007')).length).toBe(held - 1)

    // A second sweep within a day makes no call, even after a sync in between.
    await sync()
    await calls()
    expect(await sweep(T0 + 23 * HOUR)).toMatchObject({ swept: false, calls: 0 })
    expect(await calls()).toEqual({ list: 0, reviews: 0 })
    // A day later, the counts agree: the summaries only.
    expect(await sweep(T0 + 24 * HOUR)).toMatchObject({ swept: true, resynced: [], resyncCalls: 0 })
  })

  it('picks up a text edited upstream without a new date in a product whose count disagrees; else the next full sync does', async () => {
    const { store, sync, sweep } = await synced()
    const [edited, other] = await store.list('SKU-003')
    const editedId = edited?.review_id as string
    await sb.admin('POST', `product-reviews/${editedId}`, { review_content: 'Edited upstream.' })
    // The count agrees: the sweep does not see the edit, nor does an incremental sync.
    expect(await sweep(T0)).toMatchObject({ disagreeing: [], updatedReviews: 0 })
    expect(await sync()).toMatchObject({ mode: 'incremental', updatedReviews: 0 })
    expect((await store.get(editedId))?.review_content).not.toBe('Edited upstream.')
    // A removal in the same product makes its count disagree: its resync finds the edit too.
    await sb.admin('DELETE', `product-reviews/${other?.review_id}`)
    const report = await sweep(T0 + 25 * HOUR)
    expect(report).toMatchObject({ resynced: ['SKU-003'], updatedReviews: 1, removedReviews: 1 })
    expect((await store.get(editedId))?.review_content).toBe('Edited upstream.')

    // An edit alone, which the sweep leaves: the next full sync compares every review.
    const [again] = await store.list('SKU-004')
    await sb.admin('POST', `product-reviews/${again?.review_id}`, { review_content: 'Edited again.' })
    expect(await sweep(T0 + 50 * HOUR)).toMatchObject({ disagreeing: [], updatedReviews: 0 })
    const full = await syncProductReviews({
      client: sb.client(),
      store,
      mode: 'full',
      replicaLanguages: LANGUAGES,
    })
    expect(full).toMatchObject({ mode: 'full', updatedReviews: 1, affectedProductIds: ['SKU-004'] })
    expect((await store.get(again?.review_id as string))?.review_content).toBe('Edited again.')
  })

  it('resyncs a product whose count keeps disagreeing at most once a day, however often it sweeps', async () => {
    const { client, store, sweep } = await synced()
    const products = (await store.keys()).length
    // A count that never agrees (as an API whose summaries count reviews its lists leave out).
    const miscounting: SweepClient = {
      products: {
        reviews: client.products.reviews,
        list: async (params) => {
          const page = await client.products.list(params)
          for (const summary of page.data)
            if (summary.product_variation_id === 'SKU-010') summary.ratings.count_total += 1
          return page
        },
      },
    }
    const first = await sweep(T0, miscounting)
    expect(first).toMatchObject({ disagreeing: ['SKU-010'], resynced: ['SKU-010'], resyncCalls: 1 })
    // Swept again 25 hours later, then once more within a day of that: resynced the first time only.
    const swept = async (now: number) =>
      sweepReplica({
        client: miscounting,
        replica: { reviews: store, summaries: createMemorySummaryStore() },
        now: at(now),
      })
    await calls()
    expect(await swept(T0 + 25 * HOUR)).toMatchObject({ resynced: ['SKU-010'], resyncCalls: 1 })
    // The stamp of a sweep is a day; a checkpoint stamped longer ago, with the product resynced since.
    const checkpoint = await store.getCheckpoint()
    if (checkpoint?.sweep === undefined) throw new Error('no sweep stamp')
    await store.setCheckpoint({
      ...checkpoint,
      sweep: { ...checkpoint.sweep, at: new Date(T0).toISOString() },
    })
    const report = await swept(T0 + 26 * HOUR)
    expect(report).toMatchObject({ swept: true, disagreeing: ['SKU-010'], resynced: [], resyncCalls: 0 })
    expect(report.calls).toBe(Math.ceil(products / 200))
    expect(await calls()).toEqual({ list: 2 * Math.ceil(products / 200), reviews: 1 })
  })

  it('shares one sweep between concurrent calls on the same replica', async () => {
    const { store, sweep } = await synced()
    const [a, b] = await Promise.all([sweep(T0), sweep(T0)])
    expect(a).toEqual(b)
    expect(await calls()).toEqual({ list: Math.ceil((await store.keys()).length / 200), reviews: 0 })
  })

  it('sweeps nothing in a replica that holds no completed sync', async () => {
    const replica = { reviews: createMemoryReviewStore(), summaries: createMemorySummaryStore() }
    expect(await sweepReplica({ client: sb.client(), replica })).toMatchObject({ swept: false, calls: 0 })
    expect(await calls()).toEqual({ list: 0, reviews: 0 })
  })
})
