import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@verified-reviews/core'
import type { ReviewsEndpointBody } from '@verified-reviews/core/endpoint'
import {
  BrandReviews as BrandReviewsFromApi,
  type BrandReviewsViewProps,
  RatingBadge,
} from '@verified-reviews/react'
import type { ReactElement } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { prefetchAsNextBuild, productReviewsView } from '../../../test/fixtures/next-build.ts'
import { startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { BrandReviews, ProductRating } from './components.tsx'
import { replicaCatchingUp, replicaFor, replicaPath } from './internal/replica.ts'
import { createRevalidateRoute, type RevalidateRouteBody } from './revalidate-route.ts'
import { createReviewsRoute } from './reviews-route.ts'

const SECRET = 'a-secret-of-the-scheduler-0123456789'
const PRODUCT = 'SKU-058'
let sb: TestSandbox
let distDir: string

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, rateLimit: 0 })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  // A fresh process's state: no replica opened, none bypassed by a route of another test file.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('verified-reviews.next.replica')]
  distDir = await mkdtemp(join(tmpdir(), 'vr-next-replica-'))
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
  vi.spyOn(console, 'log').mockImplementation(() => undefined)
})
afterEach(async () => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  await rm(distDir, { recursive: true, force: true })
})

const build = () => prefetchAsNextBuild(sb)
const view = (searchParams: Record<string, string | undefined>) => productReviewsView(PRODUCT, searchParams)

/** The review ids of every page of a view, following its next cursors. */
async function walk(params: Record<string, string | undefined>): Promise<string[][]> {
  const pages: string[][] = []
  let props = await view(params)
  for (;;) {
    pages.push((props.reviews ?? []).map((review) => review.review_id))
    if (props.nextCursor === undefined || pages.length > 50) return pages
    props = await view({ ...params, vr_cursor: props.nextCursor ?? undefined })
  }
}

describe('a server whose build left a replica', () => {
  it('renders every order, rate filter and page of a product from it, with no API call', async () => {
    await build()
    for (const params of [
      {},
      { vr_sort: 'oldest' },
      { vr_sort: 'highest', vr_rate: '5,4' },
      { vr_sort: 'lowest' },
    ]) {
      const pages = await walk(params)
      expect(pages.flat().length, JSON.stringify(params)).toBeGreaterThan(0)
      expect(new Set(pages.flat()).size).toBe(pages.flat().length)
    }
    const rating = (await ProductRating({ productId: PRODUCT })) as ReactElement<{
      rating?: { count_total: number }
    }>
    expect(rating.type).toBe(RatingBadge)
    expect(rating.props.rating?.count_total).toBeGreaterThan(0)
    expect((await sb.stats()).total).toBe(0)
  })

  it('serves the "more reviews" route from it, going on from the page’s cursor, with no API call', async () => {
    await build()
    const first = await view({ vr_sort: 'highest' })
    const second = await view({ vr_sort: 'highest', vr_cursor: first.nextCursor ?? undefined })
    const route = createReviewsRoute({ replica: replicaFor })
    const url = new URL('https://shop.example/api/reviews')
    url.search = new URLSearchParams({
      product_variation_id: PRODUCT,
      sort: 'highest',
      cursor: first.nextCursor ?? '',
    }).toString()
    const answer = await route.GET(new Request(url))
    expect(answer.status).toBe(200)
    const body = (await answer.json()) as ReviewsEndpointBody
    expect(body.data.map((review) => review.review_id)).toEqual(
      second.reviews?.map((review) => review.review_id),
    )
    expect((await sb.stats()).total).toBe(0)
  })

  it('shows the same first page for junk and forged cursors, with no API call', async () => {
    await build()
    const first = (await view({})).reviews?.map((review) => review.review_id)
    for (const vr_cursor of [
      'junk',
      's1.forged.~vrp1~eyJkIjoiYSIsInYiOjAsImkiOiJ6In0',
      '%00',
      'x'.repeat(900),
    ]) {
      const props = await view({ vr_cursor })
      expect(props.reviews?.map((review) => review.review_id)).toEqual(first)
    }
    expect((await sb.stats()).total).toBe(0)
  })

  it('shows a review added upstream once the revalidate route synced it, summary included, and renders with no call', async () => {
    await build()
    const before = await view({})
    await sb.admin('POST', 'product-reviews', [
      { product_variation_id: PRODUCT, review_rate: 5, review_content: 'Arrived after the build' },
    ])
    const revalidated: string[] = []
    const route = createRevalidateRoute({
      secret: SECRET,
      brandStore: false,
      revalidate: (tag) => revalidated.push(tag),
    })
    const answer = await route.POST(
      new Request('https://shop.example/api/revalidate-reviews', {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}` },
      }),
    )
    expect(answer.status).toBe(200)
    expect(await answer.json()).toMatchObject({
      products: [PRODUCT],
      sync: { products: { mode: 'incremental' } },
    })
    // One incremental sync call, one call for the changed product's summary.
    expect((await sb.stats()).operations).toEqual({ 'products.reviews.list': 1, 'products.list': 1 })
    expect(revalidated).toEqual([`verified-reviews:product:${PRODUCT}`])
    await sb.admin('DELETE', 'stats')

    const after = await view({})
    expect(after.reviews?.[0]?.review_content).toBe('Arrived after the build')
    expect(after.summary?.ratings?.count_total).toBe((before.summary?.ratings?.count_total ?? 0) + 1)
    expect((await sb.stats()).total).toBe(0)
  })

  it('catches up by itself once its last sync is older than the revalidate interval, with no scheduler', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '1')
    await build()
    await view({})
    expect(replicaCatchingUp()).toBeUndefined()
    await sb.admin('POST', 'product-reviews', [
      { product_variation_id: PRODUCT, review_rate: 4, review_content: 'Found without a revalidate call' },
    ])
    await new Promise((resolve) => setTimeout(resolve, 1100))
    // This render starts the sync and does not wait for it; one sync runs however many renders ask.
    await Promise.all([view({}), view({ vr_sort: 'oldest' })])
    await replicaCatchingUp()
    expect((await sb.stats()).operations).toEqual({ 'products.reviews.list': 1, 'products.list': 1 })
    expect((await view({})).reviews?.[0]?.review_content).toBe('Found without a revalidate call')
    expect(replicaCatchingUp()).toBeUndefined()
  })

  it('goes on incrementally after a restart, product and brand reviews alike, from the replica file', async () => {
    await build()
    const call = () =>
      createRevalidateRoute({ secret: SECRET, revalidate: () => undefined }).POST(
        new Request('https://shop.example/api/revalidate-reviews', {
          method: 'POST',
          headers: { authorization: `Bearer ${SECRET}` },
        }),
      )
    const first = (await (await call()).json()) as RevalidateRouteBody
    expect(first.sync.products.mode).toBe('incremental')
    expect(first.sync.brands?.mode).toBe('full')
    // A new process over the same files: nothing of the last one's state.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('verified-reviews.next.replica')]
    await sb.admin('DELETE', 'stats')
    const second = (await (await call()).json()) as RevalidateRouteBody
    expect(second.sync.products).toMatchObject({ mode: 'incremental', calls: 1 })
    expect(second.sync.brands).toMatchObject({ mode: 'incremental', calls: 1 })
    expect((await sb.stats()).operations).toEqual({ 'products.reviews.list': 1, 'brands.reviews.list': 1 })
  })

  it('serves the shop page from it once a first sync of the brand reviews ran in the background', async () => {
    await build()
    const shop = async (shopKey: string | undefined, searchParams: Record<string, string> = {}) =>
      ((await BrandReviews({ shopKey, searchParams })) as ReactElement<BrandReviewsViewProps>).props
    // The first render reads the API and starts the sync of the brand reviews and their statistics.
    expect((await shop(undefined)).reviews?.length).toBeGreaterThan(0)
    await replicaCatchingUp()
    const synced = (await sb.stats()).operations
    expect(synced['brands.list']).toBe(2) // the render's statistics, then the sync's, all shops in one
    await sb.admin('DELETE', 'stats')

    // Every view of the brand and of a shop, from the replica: the same reviews and statistics as the API's.
    const client = createClient() // the environment's, as the test stubbed it
    const views: Record<string, string>[] = [
      {},
      { vr_sort: 'oldest' },
      { vr_sort: 'highest', vr_rate: '5,4' },
      { vr_sort: 'lowest' },
    ]
    const fromReplica: [string | undefined, Record<string, string>, BrandReviewsViewProps][] = []
    for (const shopKey of [undefined, 'shop-lyon'])
      for (const params of views) {
        let props = await shop(shopKey, params)
        fromReplica.push([shopKey, params, props])
        if (props.nextCursor) {
          props = await shop(shopKey, { ...params, vr_cursor: props.nextCursor })
          expect(props.reviews?.length).toBeGreaterThan(0)
        }
      }
    expect((await sb.stats()).operations).toEqual({})
    for (const [shopKey, params, props] of fromReplica) {
      const api = (
        (await BrandReviewsFromApi({
          shopKey,
          searchParams: params,
          client,
        })) as ReactElement<BrandReviewsViewProps>
      ).props
      expect(
        props.reviews?.map((review) => review.review_id),
        JSON.stringify([shopKey, params]),
      ).toEqual(api.reviews?.map((review) => review.review_id))
      expect(props.rating).toEqual(api.rating)
    }
  })

  it('shows a shop review added upstream once the revalidate route synced it, with no call to render it', async () => {
    await build()
    const route = createRevalidateRoute({ secret: SECRET, revalidate: () => undefined })
    const call = async () =>
      (await (
        await route.POST(
          new Request('https://shop.example/api/revalidate-reviews', {
            method: 'POST',
            headers: { authorization: `Bearer ${SECRET}` },
          }),
        )
      ).json()) as RevalidateRouteBody
    expect((await call()).sync.brands?.mode).toBe('full')
    await sb.admin('POST', 'brand-reviews', [
      { shop_key: 'shop-lille', review_rate: 2, review_content: 'Queue too long' },
    ])
    await sb.admin('DELETE', 'stats')
    const second = await call()
    expect(second.shops).toEqual(['shop-lille'])
    // The new review's shop changed: its statistics come again, all shops in one call.
    expect((await sb.stats()).operations).toMatchObject({ 'brands.reviews.list': 1, 'brands.list': 1 })
    await sb.admin('DELETE', 'stats')
    const props = ((await BrandReviews({ shopKey: 'shop-lille' })) as ReactElement<BrandReviewsViewProps>)
      .props
    expect(props.reviews?.[0]?.review_content).toBe('Queue too long')
    expect(props.rating?.shop_key).toBe('shop-lille')
    expect((await sb.stats()).operations).toEqual({})
  })

  it('keeps the replica of each account apart: another client id or origin never reads this one', async () => {
    await build()
    await view({})
    const first = await replicaPath()
    expect(first).toMatch(/replica-[0-9a-f]{12}\.sqlite$/)
    expect(await readdir(join(first, '..'))).toContain(first.split('/').at(-1))
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', 'another-account')
    expect(await replicaPath()).not.toBe(first)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', sb.env().VERIFIED_REVIEWS_CLIENT_ID)
    vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', 'https://api.example')
    expect(await replicaPath()).not.toBe(first)
  })

  it('makes an unreadable replica again from the build, once, and says so', async () => {
    await build()
    const file = await replicaPath()
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, 'not a database at all, but long enough to be read as one'.repeat(100))
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    expect((await view({})).reviews?.length).toBeGreaterThan(0)
    expect(errors).toHaveBeenCalledTimes(1)
    expect(String(errors.mock.calls[0]?.[0])).toMatch(
      /could not be read .* made again from the build's reviews/,
    )
    expect((await readdir(join(file, '..'))).some((name) => name.includes('.unreadable-'))).toBe(true)
    expect((await sb.stats()).total).toBe(0)
  })
})

describe('a server without a replica (next dev, a build without credentials)', () => {
  it('reads the API, and creates no replica file', async () => {
    const props = await view({})
    expect(props.reviews?.length).toBeGreaterThan(0)
    expect((await sb.stats()).total).toBeGreaterThan(0)
    expect(await readdir(distDir)).toEqual([])
  })
})
