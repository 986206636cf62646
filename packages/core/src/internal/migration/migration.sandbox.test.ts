import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { BrandReview, ProductReview } from '../../types/published.ts'
import type { VerifiedReviewsClient } from '../client/client.ts'
import { fromGenesisProductBody, fromGenesisStaticFile, fromGenesisWebsiteParams } from './genesis-params.ts'
import {
  fromGenesisAveragesResponse,
  fromGenesisBrandFile,
  fromGenesisProductReviewsResponse,
  fromGenesisShopLine,
  fromGenesisWebsiteResponse,
} from './genesis-records.ts'
import { fromLegacyRatingsParams, fromLegacyReviewsParams } from './legacy-params.ts'
import { fromLegacyRatingsResponse, fromLegacyReviewsResponse } from './legacy-records.ts'
import { skipItems, takeItems } from './walk.ts'

const sb = sandboxForFile({ seed: 1 })
let vr: VerifiedReviewsClient

beforeAll(() => {
  vr = sb.client()
})

const REFS = ['SKU-001', 'SKU-002', 'SKU-013']

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

function byId<T extends { review_id: string }>(reviews: T[]): Map<string, T> {
  return new Map(reviews.map((r) => [r.review_id, r]))
}

/** The fields a legacy review carries, as the Published API states them. */
function legacyView(review: ProductReview) {
  const { translated_review, extras, order_reference, order_id, product_name, is_verified, ...kept } = review
  return {
    ...kept,
    // The legacy API cannot tell none from spontaneous.
    incentivization: kept.incentivization === 'spontaneous' ? 'none' : kept.incentivization,
    moderations: kept.moderations.map(({ translated_comment, ...m }) => m),
  }
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>
}

describe('legacy reviews mapped to the Published shape', () => {
  it('equal the Published records on every field the legacy API carries', async () => {
    const legacy = fromLegacyReviewsResponse(await vr.legacy.products.reviews.get({ ref: REFS }))
    const published = byId(await all(vr.products.reviews.list({ product_variation_id: REFS, limit: 200 })))
    expect(legacy.length).toBe(published.size)
    for (const review of legacy) {
      const expected = published.get(review.review_id)
      expect(expected).toBeDefined()
      if (expected === undefined) continue
      const { translated_review, extras, order_reference, order_id, product_name, is_verified, ...mapped } =
        review
      expect(mapped).toEqual(legacyView(expected))
    }
  })

  it('come in the same order, per product, through the mapped parameters, skipItems and takeItems', async () => {
    const legacyParams = {
      ref: REFS,
      rate: [3, 4, 5] as const,
      sortBy: ['rate'],
      sortDirection: 'ASC' as const,
      limit: 4,
      offset: 2,
    }
    const legacy = await vr.legacy.products.reviews.get({ ...legacyParams, rate: [...legacyParams.rate] })
    const { params, skip, take, perProduct } = fromLegacyReviewsParams({
      ...legacyParams,
      rate: [...legacyParams.rate],
    })
    expect(perProduct).toBe(true)
    const per = (r: ProductReview) => r.product_variation_id
    const walked = await all(
      takeItems(skipItems(vr.products.reviews.list(params), skip, { per }), take ?? 0, { per }),
    )
    for (const ref of REFS) {
      const expected = (legacy.data[ref] ?? []).map((r) => r.id)
      expect(walked.filter((r) => r.product_variation_id === ref).map((r) => r.review_id)).toEqual(expected)
    }
  })
})

describe('legacy ratings mapped to the Published shape', () => {
  it('equal the bulk ratings of the mapped call on average and counts', async () => {
    const refs = ['SKU-001', 'SKU-002', 'SKU-404']
    const legacy = fromLegacyRatingsResponse(await vr.legacy.products.ratings.get({ ref: refs }))
    const call = fromLegacyRatingsParams({ ref: refs })
    if (call.operation !== 'products.ratings.list') throw new Error('expected a bulk ratings call')
    const published = await vr.products.ratings.list(call.params)
    const fields = [
      'product_variation_id',
      'average',
      'count_total',
      'count_5',
      'count_4',
      'count_3',
      'count_2',
      'count_1',
    ] as const
    expect(legacy.map((r) => pick(r, fields))).toEqual(published.map((r) => pick(r, fields)))
  })
})

/** The fields a Genesis brand review carries. */
const GENESIS_BRAND_FIELDS = [
  'review_id',
  'review_rate',
  'review_content',
  'order_reference',
  'shop_key',
  'author_firstname',
  'author_lastname',
  'website_id',
  'publish_date',
  'review_date',
  'order_date',
] as const

describe('Genesis brand reviews mapped to the Published shape', () => {
  it('equal the Published page that the mapped parameters and skipItems reach', async () => {
    const genesisParams = {
      range: 20,
      p: 3,
      order_by: 'rate',
      order_type: 'desc',
      field: 'rate',
      sign: '>=',
      compare: 3,
    } as const
    const genesis = fromGenesisWebsiteResponse(await vr.genesis.website.get(genesisParams), {
      websiteId: sb.sandbox.websiteId,
    })
    const { params, skip, take } = fromGenesisWebsiteParams(genesisParams)
    const published: BrandReview[] = await all(
      takeItems(skipItems(vr.brands.reviews.list(params), skip), take ?? 0),
    )
    expect(genesis).toHaveLength(20)
    expect(genesis.map((r) => pick(r, GENESIS_BRAND_FIELDS))).toEqual(
      published.map((r) => pick(r, GENESIS_BRAND_FIELDS)),
    )
    expect(genesis.map((r) => r.moderations)).toEqual(
      published.map((r) => r.moderations.map((m) => ({ ...m, origin_type: 'moderator' }))),
    )
  })
})

describe('Genesis product reviews and averages mapped to the Published shape', () => {
  it('equal the Published reviews that the mapped call and takeItems give', async () => {
    const body = { query: 'reviews', product: REFS, limit: 5, order: 'date_asc' } as const
    const genesis = fromGenesisProductReviewsResponse(
      await vr.genesis.product.reviews({ product: REFS, limit: 5, order: 'date_asc' }),
    )
    const call = fromGenesisProductBody(body)
    if (call.operation !== 'products.reviews.list') throw new Error('expected a reviews call')
    const per = (r: ProductReview) => r.product_variation_id
    const published = await all(takeItems(vr.products.reviews.list(call.params), call.take ?? 0, { per }))
    const fields = [
      'review_id',
      'review_rate',
      'review_content',
      'product_variation_id',
      'publish_date',
      'order_reference',
    ] as const
    const sortByProduct = (reviews: ProductReview[]) =>
      REFS.flatMap((ref) => reviews.filter((r) => r.product_variation_id === ref))
    expect(genesis.map((r) => pick(r, fields))).toEqual(sortByProduct(published).map((r) => pick(r, fields)))
  })

  it('equal the bulk ratings on average and count', async () => {
    const genesis = fromGenesisAveragesResponse(
      await vr.genesis.product.average({ product: [...REFS, 'SKU-404'] }),
    )
    const call = fromGenesisProductBody({ query: 'average', product: [...REFS, 'SKU-404'] })
    if (call.operation !== 'products.ratings.list') throw new Error('expected a ratings call')
    const published = await vr.products.ratings.list(call.params)
    expect(genesis).toEqual(published.map((r) => pick(r, ['product_variation_id', 'average', 'count_total'])))
  })
})

describe('Genesis static files mapped onto brand ratings', () => {
  it('give the count of the brand entry of the call the brand file maps to', async () => {
    const brandFile = fromGenesisBrandFile(await vr.genesis.static.brand())
    const call = fromGenesisStaticFile('infosite.txt')
    const ratings = await all(vr.brands.list(call.params))
    expect(call.entries).toBe('brand')
    expect(brandFile.count_total_since_creation).toBe(
      ratings.find((r) => r.shop_key === '')?.count_total_since_creation,
    )
  })

  it('give the count of each shop entry of the call the shop file maps to', async () => {
    const shops = (await vr.genesis.static.shops()).map(fromGenesisShopLine)
    const call = fromGenesisStaticFile('infoshops.txt')
    const ratings = await all(vr.brands.list(call.params))
    const count = (key: string) => ratings.find((r) => r.shop_key === key)?.count_total_since_creation
    expect(call.entries).toBe('shops')
    expect(shops.length).toBeGreaterThan(0)
    for (const shop of shops) expect(shop.count_total_since_creation).toBe(count(shop.shop_key))
  })
})
