import { describe, expect, it } from 'vitest'
import type { BrandReview, ProductReview } from '../../types/published.ts'
import { BadRequestError, ValidationError } from '../base/errors.ts'
import { READ_AHEAD } from '../context/read-ahead.ts'
import type { SyncListParams, SyncPage, SyncRequestOptions } from './engine.ts'
import { createMemoryReviewStore } from './memory-store.ts'
import { syncBrandReviews, syncProductReviews } from './sync-reviews.ts'

function review(n: number, product = `SKU-${n % 3}`): ProductReview {
  return {
    review_id: `r${String(n).padStart(4, '0')}`,
    author_firstname: 'Ana',
    author_lastname: 'Lee',
    is_personal_data_disclosed: true,
    locale: 'en-GB',
    review_date: '2025-01-01T00:00:00Z',
    publish_date: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    order_date: '2024-12-01T00:00:00Z',
    review_content: `Review ${n}`,
    review_rate: 5,
    order_reference: `O${n}`,
    order_id: `O${n}`,
    product_variation_id: product,
    product_ean: '',
    product_upc: '',
    product_jan: '',
    product_sku: product,
    product_mpn: '',
    product_brand: 'Acme',
    product_name: 'Kettle',
    is_verified: true,
    medias: [],
    incentivization: 'none',
    syndicated_review: false,
    syndicated_review_source: '',
    syndicated_review_source_url: '',
    translated_review: {},
    moderations: [],
    extras: {},
  }
}

/**
 * A review list operation over an array, paged like the API: sorted by publish_date (ties by id),
 * keyset cursors, a call log, and a failure that can be armed for one call.
 */
function fakeApi<T extends { review_id: string; publish_date: string }>(items: T[]) {
  const log: SyncListParams<'publish_date'>[] = []
  let failOnCall: number | undefined
  let refuseDates = false
  const order = (desc: boolean) => (a: T, b: T) => {
    const byDate = a.publish_date < b.publish_date ? -1 : a.publish_date > b.publish_date ? 1 : 0
    const byId = a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
    return (desc ? -byDate : byDate) || byId
  }
  const load = (params: SyncListParams<'publish_date'>): Promise<SyncPage<T>> => {
    log.push(params)
    if (failOnCall === log.length) return Promise.reject(new Error('503 from the fake'))
    if (refuseDates && params.publish_date !== undefined) {
      const body = { error: 'invalid_parameter', field: 'publish_date.gte' }
      return Promise.reject(
        new BadRequestError({ status: 400, headers: new Headers(), body, url: '', source: 'published' }),
      )
    }
    const desc = (params.desc ?? []).includes('publish_date')
    const since = params.publish_date?.gte
    const sorted = items.filter((item) => since === undefined || item.publish_date >= since).sort(order(desc))
    let start = 0
    if (params.cursor !== undefined) {
      const [date, id] = JSON.parse(params.cursor) as [string, string]
      const boundary = { publish_date: date, review_id: id } as T
      start = sorted.findIndex((item) => order(desc)(item, boundary) > 0)
      if (start === -1) start = sorted.length
    }
    const limit = params.limit ?? 10
    const data = sorted.slice(start, start + limit)
    const last = data.at(-1)
    const nextCursor =
      start + limit < sorted.length && last !== undefined
        ? JSON.stringify([last.publish_date, last.review_id])
        : undefined
    const page: SyncPage<T> = {
      data: structuredClone(data),
      nextCursor,
      hasNextPage: () => nextCursor !== undefined,
      getNextPage: () => load({ ...params, cursor: nextCursor as string }),
    }
    return Promise.resolve(page)
  }
  return {
    items,
    log,
    failOn(call: number) {
      failOnCall = log.length + call
    },
    /** From now on, answer 400 to a request with a date filter, as an API without one would. */
    refuseDateFilters() {
      refuseDates = true
    },
    list: load,
  }
}

function setup(count: number) {
  const api = fakeApi(Array.from({ length: count }, (_, i) => review(i)))
  const store = createMemoryReviewStore()
  const client = { products: { reviews: { list: api.list } } }
  const now = () => new Date('2026-01-01T00:00:00Z')
  return { api, store, sync: (options = {}) => syncProductReviews({ client, store, now, ...options }) }
}

describe('syncProductReviews', () => {
  it('runs a full sync first, oldest first, and holds every review', async () => {
    const { api, store, sync } = setup(450)
    const report = await sync()
    expect(report).toMatchObject({
      mode: 'full',
      newReviews: 450,
      updatedReviews: 0,
      calls: 3,
      resumed: false,
    })
    expect(report.affectedProductIds).toEqual(['SKU-0', 'SKU-1', 'SKU-2'])
    expect(await store.count()).toBe(450)
    expect(api.log[0]).toEqual({ limit: 200, sort: ['publish_date'] })
  })

  it('empties the data of each page once stored, so that its reviews do not wait for the next page', async () => {
    const { api, store } = setup(450)
    const pages: SyncPage<ProductReview>[] = []
    const list = (params: SyncListParams<'publish_date'>) =>
      api.list(params).then((page) => {
        pages.push(page)
        return { ...page, getNextPage: () => list({ ...params, cursor: page.nextCursor as string }) }
      })
    await syncProductReviews({ client: { products: { reviews: { list } } }, store })
    expect(pages.map((page) => page.data.length)).toEqual([0, 0, 50])
    expect(await store.count()).toBe(450)
  })

  it('asks for the next page of a full walk while it stores the page in hand, and not past the last', async () => {
    const { api } = setup(450)
    const store = createMemoryReviewStore()
    // What the API had been asked for when each page's write began.
    const askedAtWrite: number[] = []
    const putMany = store.putMany.bind(store)
    store.putMany = async (reviews, checkpoint) => {
      askedAtWrite.push(api.log.length)
      return putMany(reviews, checkpoint)
    }
    const report = await syncProductReviews({ client: { products: { reviews: { list: api.list } } }, store })
    expect(askedAtWrite).toEqual([2, 3, 3])
    expect(report.calls).toBe(3)
    expect(api.log).toHaveLength(3)
    expect(await store.count()).toBe(450)
  })

  it('asks the client to read ahead in a full walk, which reads every page, and not in an incremental one', async () => {
    const { api, store } = setup(450)
    const asked: (SyncRequestOptions | undefined)[] = []
    const list = (params: SyncListParams<'publish_date'>, options?: SyncRequestOptions) => {
      asked.push(options)
      return api.list(params)
    }
    const client = { products: { reviews: { list } } }
    await syncProductReviews({ client, store })
    await syncProductReviews({ client, store })
    expect(asked.map((options) => options?.cache)).toEqual([false, false])
    expect(asked.map((options) => (options as { [READ_AHEAD]?: boolean })[READ_AHEAD])).toEqual([
      true,
      undefined,
    ])
  })

  it('asks for the next page of an incremental walk only once the page in hand did not reach the held reviews', async () => {
    const { api, store, sync } = setup(300)
    await sync()
    api.items.push(...Array.from({ length: 250 }, (_, i) => review(1000 + i)))
    const askedAtWrite: number[] = []
    const putMany = store.putMany.bind(store)
    store.putMany = async (reviews, checkpoint) => {
      askedAtWrite.push(api.log.length)
      return putMany(reviews, checkpoint)
    }
    const before = api.log.length
    const report = await sync()
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 250, calls: 2 })
    expect(askedAtWrite.map((asked) => asked - before)).toEqual([1, 2])
  })

  it('then runs incrementally, newest first, in one call when nothing changed', async () => {
    const { api, sync } = setup(450)
    await sync()
    const report = await sync()
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 0, updatedReviews: 0, calls: 1 })
    expect(report.affectedProductIds).toEqual([])
    expect(api.log.at(-1)).toEqual({ limit: 200, sort: ['publish_date'], desc: ['publish_date'] })
  })

  it('finds exactly the new reviews in one call when fewer than limit arrived', async () => {
    const { api, store, sync } = setup(450)
    await sync()
    api.items.push(review(1000, 'SKU-NEW'), review(1001, 'SKU-1'))
    const report = await sync()
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 2, calls: 1 })
    expect(report.affectedProductIds).toEqual(['SKU-1', 'SKU-NEW'])
    expect((await store.list('SKU-NEW')).map((r) => r.review_id)).toEqual(['r1000'])
  })

  it('walks as many pages as the new reviews fill, then stops', async () => {
    const { api, sync } = setup(100)
    await sync({ limit: 50 })
    for (let n = 200; n < 300; n++) api.items.push(review(n))
    const report = await sync({ limit: 50 })
    expect(report).toMatchObject({ newReviews: 100, calls: 3 })
  })

  it('counts a held review that comes back with a later publish date and new content as updated', async () => {
    const { api, store, sync } = setup(10)
    await sync()
    const edited = { ...review(3), review_content: 'Edited', publish_date: '2026-01-01T00:00:00.000Z' }
    api.items[3] = edited
    const report = await sync()
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 0, updatedReviews: 1 })
    expect(report.affectedProductIds).toEqual(['SKU-0'])
    expect((await store.get('r0003'))?.review_content).toBe('Edited')
  })

  it('finds an edit that kept its publish date only with a full run', async () => {
    const { api, sync } = setup(10)
    await sync()
    api.items[3] = { ...review(3), review_content: 'Edited' }
    expect((await sync()).updatedReviews).toBe(0)
    expect(await sync({ mode: 'full' })).toMatchObject({ mode: 'full', newReviews: 0, updatedReviews: 1 })
  })

  it('reports a review that moved to another product under both products', async () => {
    const { api, sync } = setup(10)
    await sync()
    api.items[4] = { ...review(4), product_variation_id: 'SKU-9', publish_date: '2026-01-01T00:00:00.000Z' }
    expect((await sync()).affectedProductIds).toEqual(['SKU-1', 'SKU-9'])
  })

  it('resumes an interrupted full sync at the page where it stopped', async () => {
    const { api, store, sync } = setup(1000)
    api.failOn(3)
    await expect(sync()).rejects.toThrow('503')
    expect(await store.count()).toBe(400)
    const cursorsBefore = api.log.length
    const report = await sync()
    expect(report).toMatchObject({ mode: 'full', resumed: true, newReviews: 1000, calls: 3 })
    expect(api.log[cursorsBefore]?.cursor).toBe(api.log[cursorsBefore - 1]?.cursor)
    expect(await store.count()).toBe(1000)
  })

  it('stops between pages when aborted and resumes from there', async () => {
    const { api } = setup(600)
    const controller = new AbortController()
    const client = {
      products: {
        reviews: {
          list: async (params: SyncListParams<'publish_date'>) => {
            const page = await api.list(params)
            controller.abort()
            return page
          },
        },
      },
    }
    const store = createMemoryReviewStore()
    await expect(syncProductReviews({ client, store, signal: controller.signal })).rejects.toThrow(/abort/i)
    expect(await store.count()).toBe(200)
    const report = await syncProductReviews({ client: { products: { reviews: { list: api.list } } }, store })
    expect(report).toMatchObject({ resumed: true, calls: 2, newReviews: 600 })
  })

  it('resumes an interrupted incremental sync and still finds every new review', async () => {
    const { api, sync } = setup(100)
    await sync({ limit: 20 })
    for (let n = 200; n < 260; n++) api.items.push(review(n))
    api.failOn(2)
    await expect(sync({ limit: 20 })).rejects.toThrow('503')
    const report = await sync({ limit: 20 })
    expect(report).toMatchObject({ mode: 'incremental', resumed: true, newReviews: 60 })
  })

  it('starts an interrupted walk over when the limit changed, without losing new reviews', async () => {
    const { api, sync } = setup(100)
    await sync({ limit: 20 })
    for (let n = 200; n < 260; n++) api.items.push(review(n))
    api.failOn(2)
    await expect(sync({ limit: 20 })).rejects.toThrow('503')
    const report = await sync({ limit: 50 })
    expect(report).toMatchObject({ mode: 'incremental', resumed: true, newReviews: 60 })
    expect(api.log.at(-2)?.cursor).toBeUndefined()
  })

  it('refuses an incremental run before a full sync has completed', async () => {
    const { sync } = setup(10)
    await expect(sync({ mode: 'incremental' })).rejects.toThrow(/full sync/)
  })

  it("runs a full sync over a store that holds some products' reviews, and holds every review after it", async () => {
    const { api, store, sync } = setup(450)
    const some = api.items.filter((item) => item.product_variation_id === 'SKU-1')
    await store.putMany(some, {
      phase: 'idle',
      newReviews: some.length,
      updatedReviews: 0,
      affected: [],
      completedAt: '2026-01-01T00:00:00Z',
      watermark: api.items.at(-1)?.publish_date ?? '',
      products: ['SKU-1'],
    })
    await expect(sync({ mode: 'incremental' })).rejects.toThrow(/some products only/)
    const report = await sync()
    expect(report).toMatchObject({ mode: 'full', newReviews: 450 - some.length, calls: 3 })
    expect(await store.count()).toBe(450)
    expect((await store.getCheckpoint())?.products).toBeUndefined()
    expect(await sync()).toMatchObject({ mode: 'incremental', calls: 1 })
  })

  it("goes on from the watermark of a named products' store with continueNamed, and keeps it one", async () => {
    const { api, store, sync } = setup(450)
    const some = api.items.filter((item) => item.product_variation_id === 'SKU-1')
    const watermark = api.items.at(-1)?.publish_date ?? ''
    await store.putMany(some, {
      phase: 'idle',
      newReviews: some.length,
      updatedReviews: 0,
      affected: [],
      completedAt: '2026-01-01T00:00:00Z',
      watermark,
      products: ['SKU-1'],
    })
    api.items.push(review(450, 'SKU-2'))
    const report = await sync({ continueNamed: true })
    // The new review, and the one published at the watermark, of a product the store did not hold.
    expect(report).toMatchObject({
      mode: 'incremental',
      newReviews: 2,
      calls: 1,
      affectedProductIds: ['SKU-2'],
    })
    expect(api.log.at(-1)).toMatchObject({ publish_date: { gte: watermark }, desc: ['publish_date'] })
    expect((await store.getCheckpoint())?.products).toEqual(['SKU-1'])
    expect(await sync({ continueNamed: true })).toMatchObject({
      mode: 'incremental',
      newReviews: 0,
      calls: 1,
    })
  })

  it('takes out of the store, in a full sync, the reviews removed upstream, and names their products', async () => {
    const { api, store, sync } = setup(450)
    expect(await sync()).toMatchObject({ mode: 'full', removedReviews: 0 })
    const [gone] = api.items.splice(7, 1)
    expect(await sync()).toMatchObject({ mode: 'incremental', removedReviews: 0 })
    expect(await store.has(gone?.review_id ?? '')).toBe(true)
    const full = await sync({ mode: 'full' })
    expect(full).toMatchObject({ mode: 'full', newReviews: 0, removedReviews: 1 })
    expect(full.affectedProductIds).toEqual([gone?.product_variation_id])
    expect(await store.has(gone?.review_id ?? '')).toBe(false)
    expect(await store.count()).toBe(449)
    expect((await store.getCheckpoint())?.affected).toEqual([gone?.product_variation_id])
  })

  it('marks nothing in a full sync that began over an empty store, also once interrupted and resumed', async () => {
    const { api, store, sync } = setup(450)
    const marked: number[] = []
    const markSeen = store.markSeen?.bind(store)
    store.markSeen = async (ids, generation) => {
      marked.push(ids.length)
      return markSeen?.(ids, generation)
    }
    api.failOn(2)
    await expect(sync()).rejects.toThrow()
    expect((await store.getCheckpoint())?.fromEmpty).toBe(true)
    expect(await sync()).toMatchObject({ mode: 'full', resumed: true, newReviews: 450, removedReviews: 0 })
    expect(marked).toEqual([])
    expect(await store.count()).toBe(450)
    expect((await store.getCheckpoint())?.fromEmpty).toBeUndefined()
    // Over the reviews it now holds, a full sync marks each page it sees again.
    await sync({ mode: 'full' })
    expect(marked).toEqual([200, 200, 50])
  })

  it('loads in bulk only a full sync that began over an empty store, and ends it after its last write, also when it fails', async () => {
    const { api, store, sync } = setup(450)
    const events: string[] = []
    const putMany = store.putMany.bind(store)
    store.putMany = async (reviews, checkpoint) => {
      events.push(`put ${reviews.length} ${checkpoint?.phase ?? ''}`)
      return putMany(reviews, checkpoint)
    }
    store.bulkLoad = async () => {
      events.push('bulk')
      return async () => {
        events.push('end')
      }
    }
    api.failOn(2)
    await expect(sync()).rejects.toThrow('503')
    expect(events).toEqual(['bulk', 'put 200 full', 'end'])
    events.length = 0
    // Resumed, the run still began over an empty store.
    expect(await sync()).toMatchObject({ mode: 'full', resumed: true, newReviews: 450 })
    expect(events).toEqual(['bulk', 'put 200 full', 'put 50 idle', 'end'])
    events.length = 0
    await sync()
    await sync({ mode: 'full' })
    expect(events.filter((event) => !event.startsWith('put'))).toEqual([])
  })

  it('removes, after a full sync it resumed, what neither part of the run saw, through the marks of both', async () => {
    const { api, store, sync } = setup(450)
    await sync()
    // One review gone from the pages before the interruption, one from those after it.
    const [early] = api.items.splice(3, 1)
    api.failOn(2)
    await expect(sync({ mode: 'full' })).rejects.toThrow()
    const [late] = api.items.splice(400, 1)
    const resumed = await sync()
    expect(resumed).toMatchObject({ mode: 'full', resumed: true, removedReviews: 2 })
    expect(await store.count()).toBe(448)
    expect(await store.has(early?.review_id ?? '')).toBe(false)
    expect(await store.has(late?.review_id ?? '')).toBe(false)
    expect(resumed.affectedProductIds).toEqual(
      [...new Set([early?.product_variation_id, late?.product_variation_id])].sort(),
    )
  })

  it('removes nothing after a resumed full sync into a store that cannot mark reviews', async () => {
    const { api } = setup(450)
    const { markSeen: _mark, removeUnseen: _unseen, ...unmarked } = createMemoryReviewStore()
    const sync = () =>
      syncProductReviews({ client: { products: { reviews: { list: api.list } } }, store: unmarked })
    await sync()
    api.items.splice(3, 1)
    api.failOn(2)
    await expect(
      syncProductReviews({
        client: { products: { reviews: { list: api.list } } },
        store: unmarked,
        mode: 'full',
      }),
    ).rejects.toThrow()
    expect(await sync()).toMatchObject({ mode: 'full', resumed: true, removedReviews: 0 })
    expect(await unmarked.count()).toBe(450)
    // A full run from its first page removes it, through the ids it holds.
    expect(
      await syncProductReviews({
        client: { products: { reviews: { list: api.list } } },
        store: unmarked,
        mode: 'full',
      }),
    ).toMatchObject({ removedReviews: 1 })
  })

  it('gives each full run a later generation, which an incremental run keeps', async () => {
    const { store, sync } = setup(10)
    await sync()
    const first = (await store.getCheckpoint())?.generation
    expect(first).toBeTypeOf('number')
    await sync()
    expect((await store.getCheckpoint())?.generation).toBe(first)
    await sync({ mode: 'full' })
    expect((await store.getCheckpoint())?.generation).toBeGreaterThan(first as number)
  })

  it('shares one run between concurrent calls on the same store', async () => {
    const { api, sync } = setup(300)
    const [a, b] = await Promise.all([sync(), sync()])
    expect(a).toEqual(b)
    expect(api.log).toHaveLength(2)
  })

  it('refuses a limit outside 1 to 200 before any call', async () => {
    const { api, sync } = setup(10)
    await expect(sync({ limit: 201 })).rejects.toThrow(ValidationError)
    expect(api.log).toHaveLength(0)
  })

  it('syncs an empty list in one call', async () => {
    const { sync } = setup(0)
    expect(await sync()).toMatchObject({ mode: 'full', newReviews: 0, calls: 1 })
  })
})

function brandReview(n: number, shop: string): BrandReview {
  const { review_id, publish_date, review_date, order_date, review_content, review_rate, locale } = review(n)
  return {
    review_id,
    publish_date,
    review_date,
    order_date,
    review_content,
    review_rate,
    locale,
    order_reference: '',
    shop_key: shop,
    author_firstname: 'Ana',
    author_lastname: 'Lee',
    website_id: 'w',
    incentivization: 'none',
    is_verified: true,
    is_personal_data_disclosed: true,
    moderations: [],
    extras: {},
  }
}

describe('syncBrandReviews', () => {
  function brandSetup(count: number) {
    const api = fakeApi(
      Array.from({ length: count }, (_, i) => brandReview(i + 1, i % 2 === 0 ? 'paris' : '')),
    )
    const store = createMemoryReviewStore<BrandReview>()
    const client = { brands: { reviews: { list: api.list } } }
    return { api, store, sync: (limit = 10) => syncBrandReviews({ client, store, limit }) }
  }

  it('reports the shops whose reviews changed, the brand as the empty key', async () => {
    const { api, sync } = brandSetup(2)
    await sync()
    api.items.push(brandReview(3, 'lyon'))
    expect(await sync()).toMatchObject({ newReviews: 1, affectedShopKeys: ['lyon'] })
  })

  it('asks incremental runs only for reviews published since the newest one held', async () => {
    const { api, sync } = brandSetup(25)
    await sync()
    api.items.push(brandReview(30, 'lyon'))
    await sync()
    expect(api.log.at(-1)).toEqual({
      limit: 10,
      sort: ['publish_date'],
      desc: ['publish_date'],
      publish_date: { gte: brandReview(25, '').publish_date },
    })
  })

  it('stops at the watermark even when every held review it meets has changed', async () => {
    const { api, sync } = brandSetup(25)
    await sync()
    for (const item of api.items) item.review_content = `${item.review_content}, edited`
    api.items.push(brandReview(30, 'lyon'))
    // Without the filter the walk would go through all 26 reviews (3 pages); with it, 2 reviews.
    expect(await sync()).toMatchObject({ mode: 'incremental', newReviews: 1, updatedReviews: 1, calls: 1 })
  })

  it('runs without the date filter when the API refuses it', async () => {
    const { api, sync } = brandSetup(25)
    await sync()
    api.refuseDateFilters()
    api.items.push(brandReview(30, 'lyon'))
    expect(await sync()).toMatchObject({ mode: 'incremental', newReviews: 1, calls: 2 })
    expect(api.log.at(-1)?.publish_date).toBeUndefined()
  })

  it('sends no date filter on a full run', async () => {
    const { api, sync } = brandSetup(5)
    await sync()
    expect(api.log.every((params) => params.publish_date === undefined)).toBe(true)
  })
})

describe('syncProductReviews and the date filter', () => {
  it('keeps the spec recipe without a date filter', async () => {
    const api = fakeApi([review(1), review(2)])
    const store = createMemoryReviewStore()
    const client = { products: { reviews: { list: api.list } } }
    await syncProductReviews({ client, store })
    api.items.push(review(3))
    await syncProductReviews({ client, store })
    expect(api.log.at(-1)?.publish_date).toBeUndefined()
  })
})

describe('syncProductReviews with replicaLanguages', () => {
  function translated(count: number) {
    const env = setup(count)
    for (const item of env.api.items) {
      item.translated_review = {
        en: `${item.review_content} (en)`,
        fr: 'Avis',
        de: 'Bewertung',
        it: 'Recensione',
      }
    }
    return env
  }

  it('stores each review in its kept form: the site’s languages alone, no order reference', async () => {
    const { store, sync } = translated(3)
    await sync({ replicaLanguages: ['fr', 'de'] })
    const held = (await store.get('r0001')) as unknown as Record<string, unknown>
    expect(held.translated_review).toEqual({ fr: 'Avis', de: 'Bewertung' })
    expect(held).not.toHaveProperty('order_reference')
    expect(held).not.toHaveProperty('order_id')
  })

  it('records the kept form in the checkpoint', async () => {
    const { store, sync } = translated(3)
    await sync({ replicaLanguages: ['fr', 'en'] })
    expect((await store.getCheckpoint())?.kept?.languages).toEqual(['en', 'fr'])
  })

  it('then runs incrementally in one call that updates nothing, when nothing changed', async () => {
    const { api, sync } = translated(450)
    await sync({ replicaLanguages: ['en', 'fr', 'de'] })
    const calls = api.log.length
    const report = await sync({ replicaLanguages: ['en', 'fr', 'de'] })
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 0, updatedReviews: 0, calls: 1 })
    expect(report).not.toHaveProperty('rebuilt')
    expect(api.log.length - calls).toBe(1)
  })

  it('makes the next sync a full one, said in its report, when the languages change', async () => {
    const { store, sync } = translated(450)
    await sync({ replicaLanguages: ['en', 'fr'] })
    const report = await sync({ replicaLanguages: ['en', 'fr', 'de'] })
    expect(report).toMatchObject({ mode: 'full', rebuilt: true, updatedReviews: 450, calls: 3 })
    expect((await store.get('r0001'))?.translated_review).toEqual({ fr: 'Avis', de: 'Bewertung' })
    expect((await store.getCheckpoint())?.kept?.languages).toEqual(['de', 'en', 'fr'])
    expect(await sync({ replicaLanguages: ['en', 'fr', 'de'] })).toMatchObject({
      mode: 'incremental',
      calls: 1,
    })
  })

  it('rebuilds a store of whole reviews, even when asked for an incremental sync', async () => {
    const { store, sync } = translated(10)
    await sync()
    const report = await sync({ replicaLanguages: ['en'], mode: 'incremental' })
    expect(report).toMatchObject({ mode: 'full', rebuilt: true })
    expect(await store.get('r0001')).not.toHaveProperty('order_id')
  })

  it('rebuilds a trimmed store into whole reviews when the languages are no longer given', async () => {
    const { store, sync } = translated(10)
    await sync({ replicaLanguages: ['en'] })
    expect(await sync()).toMatchObject({ mode: 'full', rebuilt: true })
    expect(await store.get('r0001')).toHaveProperty('order_id', 'O1')
    expect((await store.getCheckpoint())?.kept).toBeUndefined()
  })

  it('refuses a language that is none of the 13 of translated_review, before any call', async () => {
    const { api, sync } = translated(3)
    await expect(sync({ replicaLanguages: ['en', 'xx'] })).rejects.toThrow(/replicaLanguages.*not xx/)
    expect(api.log).toHaveLength(0)
  })
})
