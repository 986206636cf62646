import { describe, expectTypeOf, it } from 'vitest'
import {
  type APIError,
  type BrandRating,
  type BrandReview,
  createClient,
  type GenesisBrandFile,
  type GenesisProductAveragesResponse,
  type GenesisProductReviewsResponse,
  type GenesisShopLine,
  type GenesisWebsiteResponse,
  type LegacyProductRatingsResponse,
  type LegacyProductReviewsResponse,
  type Operation,
  type Page,
  type PagePromise,
  type ProductRating,
  type ProductRatingsLookupType,
  type ProductReview,
  type ProductReviewListParams,
  type ProductSummary,
  type PurchaseEventResult,
  RateLimitError,
  type RateShareError,
  type RequestOptions,
  type RequestOptionsHook,
  type StructuredData,
  ValidationError,
  type VerifiedReviewsError,
} from '../../index.ts'

const vr = createClient({ clientId: 'id', clientSecret: 'secret' })

describe('createClient', () => {
  it('takes no argument at all', () => {
    expectTypeOf(createClient).parameter(0).toEqualTypeOf<Parameters<typeof createClient>[0]>()
    expectTypeOf(createClient()).toEqualTypeOf(vr)
  })

  it('refuses an option it does not know', () => {
    // @ts-expect-error: not an option
    createClient({ clientID: 'id' })
  })

  it('lets a hook give up by answering false', () => {
    createClient({ onRateLimit: (event) => event.delay < 5000, onRetry: () => false })
    // @ts-expect-error: the hook answers a boolean or nothing
    createClient({ onRetry: () => 'no' })
  })

  it('takes fetch options such as those of Next.js', () => {
    createClient({ fetchOptions: { next: { revalidate: 60, tags: ['reviews'] } } })
  })
})

describe('requestOptions', () => {
  it('narrows the parameters by the operation', () => {
    createClient({
      requestOptions: ({ operation, params }) => {
        if (operation === 'products.reviews.list') {
          expectTypeOf(params).toEqualTypeOf<ProductReviewListParams>()
          return { fetchOptions: { next: { tags: [String(params.product_variation_id)] } } }
        }
        if (operation === 'products.ratings.list')
          expectTypeOf(params.type).toEqualTypeOf<ProductRatingsLookupType>()
        return undefined
      },
    })
  })

  it('names only the operations the client has', () => {
    createClient({
      requestOptions: ({ operation }) => {
        // @ts-expect-error: no operation is named so (a renamed one fails here)
        if (operation === 'products.reviews.all') return {}
        return undefined
      },
    })
    expectTypeOf<'products.reviews.list'>().toExtend<Operation>()
    expectTypeOf<'products.reviews.all'>().not.toExtend<Operation>()
  })

  it('answers request options or nothing', () => {
    // @ts-expect-error: tags go in fetchOptions or cache, not at the top
    createClient({ requestOptions: () => ({ tags: ['x'] }) })
    expectTypeOf<ReturnType<RequestOptionsHook>>().toEqualTypeOf<RequestOptions | undefined>()
  })
})

describe('list operations', () => {
  it('answer a page promise of the resource', () => {
    expectTypeOf(vr.products.reviews.list()).toEqualTypeOf<PagePromise<ProductReview>>()
    expectTypeOf(vr.products.list()).toEqualTypeOf<PagePromise<ProductSummary>>()
    expectTypeOf(vr.brands.list()).toEqualTypeOf<PagePromise<BrandRating>>()
    expectTypeOf(vr.brands.reviews.list()).toEqualTypeOf<PagePromise<BrandReview>>()
  })

  it('await to a page and iterate to items', async () => {
    const page = await vr.products.reviews.list({ limit: 20 })
    expectTypeOf(page).toEqualTypeOf<Page<ProductReview>>()
    expectTypeOf(page.data).toEqualTypeOf<ProductReview[]>()
    expectTypeOf(page.getNextPage()).toEqualTypeOf<Promise<Page<ProductReview>>>()
    expectTypeOf(page.hasPreviousPage()).toEqualTypeOf<boolean>()
    for await (const review of vr.products.reviews.list()) expectTypeOf(review).toEqualTypeOf<ProductReview>()
  })

  it('take only the sortable fields of the operation', () => {
    vr.products.reviews.list({ sort: ['publish_date', 'review_rate'], desc: 'publish_date' })
    // @ts-expect-error: not sortable on product reviews
    vr.products.reviews.list({ sort: 'shop_key' })
    vr.brands.reviews.list({ sort: 'shop_key' })
  })

  it('take typed filters', () => {
    vr.products.reviews.list({
      product_variation_id: ['SKU-1'],
      review_rate: [4, 5],
      publish_date: { gte: '2026-01-01', lt: new Date() },
      is_verified: true,
      incentivization: 'gifted',
    })
    // @ts-expect-error: a rating is 1 to 5
    vr.products.reviews.list({ review_rate: 6 })
    // @ts-expect-error: booleans are booleans
    vr.products.reviews.list({ is_verified: 'true' })
    // @ts-expect-error: eq is not a date operator
    vr.products.reviews.list({ publish_date: { eq: '2026-01-01' } })
  })

  it('take per-request options as the last argument', () => {
    vr.products.list({}, { signal: AbortSignal.timeout(1000), timeout: 500, maxRetries: 0, cache: false })
  })
})

describe('other operations', () => {
  it('answer the types of their resource', () => {
    expectTypeOf(vr.products.ratings.list({ type: 'product_ean', value: ['1'] })).toEqualTypeOf<
      Promise<ProductRating[]>
    >()
    expectTypeOf(
      vr.products.structuredData.get({ product_variation_id: 'SKU-1', canonical_url: 'https://shop.test/p' }),
    ).toEqualTypeOf<Promise<StructuredData>>()
    expectTypeOf(vr.purchaseEvents.submit({ events: [] })).toEqualTypeOf<Promise<PurchaseEventResult[]>>()
    expectTypeOf(vr.legacy.products.ratings.get()).toEqualTypeOf<Promise<LegacyProductRatingsResponse>>()
    expectTypeOf(vr.legacy.products.reviews.get()).toEqualTypeOf<Promise<LegacyProductReviewsResponse>>()
    expectTypeOf(vr.genesis.website.get()).toEqualTypeOf<Promise<GenesisWebsiteResponse>>()
    expectTypeOf(vr.genesis.product.reviews({ product: ['A'] })).toEqualTypeOf<
      Promise<GenesisProductReviewsResponse>
    >()
    expectTypeOf(vr.genesis.product.average({ product: ['A'] })).toEqualTypeOf<
      Promise<GenesisProductAveragesResponse>
    >()
    expectTypeOf(vr.genesis.static.brand()).toEqualTypeOf<Promise<GenesisBrandFile>>()
    expectTypeOf(vr.genesis.static.shops()).toEqualTypeOf<Promise<GenesisShopLine[]>>()
  })

  it('require the parameters the API requires', () => {
    // @ts-expect-error: value is required
    vr.products.ratings.list({ type: 'product_ean' })
    // @ts-expect-error: canonical_url is required
    vr.products.structuredData.get({ product_variation_id: 'SKU-1' })
  })

  it('narrow a purchase event result by its status', async () => {
    const [result] = await vr.purchaseEvents.submit({ events: [] })
    if (result?.status === 'created') expectTypeOf(result.event.id).toEqualTypeOf<string>()
    if (result?.status === 'rejected')
      expectTypeOf(result.reasons[0]?.message).toEqualTypeOf<string | undefined>()
  })
})

describe('errors', () => {
  it('share one root class', () => {
    expectTypeOf<RateLimitError>().toExtend<APIError>()
    expectTypeOf<RateShareError>().toExtend<RateLimitError>()
    expectTypeOf<APIError>().toExtend<VerifiedReviewsError>()
    expectTypeOf<ValidationError>().toExtend<VerifiedReviewsError>()
  })

  it('carry what the caller needs', () => {
    expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<ValidationError['field']>().toEqualTypeOf<string>()
    expectTypeOf<APIError['status']>().toEqualTypeOf<number>()
    expectTypeOf(new ValidationError([{ field: 'limit', message: 'x' }])).toExtend<Error>()
    expectTypeOf(RateLimitError).toBeConstructibleWith({
      status: 429,
      headers: new Headers(),
      body: undefined,
      url: '',
      source: 'published',
    })
  })
})
