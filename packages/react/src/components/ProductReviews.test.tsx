// @vitest-environment jsdom
import { createClient, type VerifiedReviewsClient } from '@verified-reviews/core'
import { createReviewsHandler, cursorSigner, type ReviewsEndpointBody } from '@verified-reviews/core/endpoint'
import { fromStructuredData, type ReviewAuthor, reviewAuthorName } from '@verified-reviews/core/jsonld'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sandboxForFile, type TestSandbox } from '../../../../test/fixtures/sandbox.ts'
import { jsonLdOf, renderAwaited } from '../../../../test/react/render.ts'
import { ProductReviews, type ProductReviewsProps } from './ProductReviews.tsx'

let sb: TestSandbox
const URL_OF_PAGE = 'https://shop.example/products/sku-001'
let withoutReviews: string

afterEach(() => {
  vi.restoreAllMocks()
})

function render(props: Partial<ProductReviewsProps> & { client?: VerifiedReviewsClient }) {
  return renderAwaited(
    ProductReviews({ productId: 'SKU-001', url: URL_OF_PAGE, client: sb.client(), ...props }),
  )
}

const authorsOf = (body: HTMLElement) =>
  [...body.querySelectorAll('.vr-review-list__items > li .vr-review > :first-child')].map(
    (node) => node.textContent,
  )

const nextHrefOf = (body: HTMLElement) =>
  body.querySelector('a.vr-review-list__next')?.getAttribute('href') ?? undefined

const authorName = (review: ReviewAuthor) => reviewAuthorName(review) || 'Anonymous customer'

describe('ProductReviews', () => {
  sb = sandboxForFile({ rateLimit: 0 })

  beforeAll(async () => {
    const products = await sb.client().products.list({ limit: 200 })
    withoutReviews =
      products.data.find((product) => product.ratings.count_total === 0)?.product_variation_id ?? ''
  })

  it('renders the rating summary, the newest page of reviews and the JSON-LD in the first HTML', async () => {
    const body = await render({})
    const api = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 10,
    })
    expect(body.querySelector('.vr-rating-summary')).not.toBeNull()
    expect(authorsOf(body)).toEqual(api.data.map(authorName))
    const [node] = jsonLdOf(body)
    expect(node).toMatchObject({ '@type': 'Product', '@id': URL_OF_PAGE, aggregateRating: { bestRating: 5 } })
    expect(jsonLdOf(body)).toHaveLength(1)
  })

  it('shows a group of variations as one product, its aggregate on the ProductGroup node', async () => {
    const ids = ['SKU-013', 'SKU-017']
    const ratings = await sb.client().products.ratings.list({ type: 'product_variation_id', value: ids })
    const total = ratings.reduce((sum, rating) => sum + rating.count_total, 0)
    const body = await render({
      productId: ids,
      product: {
        '@type': 'ProductGroup',
        name: 'Waterproof Parka',
        productGroupID: 'PARKA',
        hasVariant: ids.map((sku) => ({ name: `Parka ${sku}`, sku })),
      },
    })
    expect(body.querySelector('.vr-rating-summary')?.textContent).toContain(`${total} reviews`)
    expect(jsonLdOf(body)).toEqual([
      expect.objectContaining({
        '@type': 'ProductGroup',
        productGroupID: 'PARKA',
        aggregateRating: expect.objectContaining({ reviewCount: total }),
      }),
    ])
  })

  it('makes one product summary call and one reviews call', async () => {
    await render({})
    const { operations } = await sb.stats()
    expect(operations['products.list']).toBe(1)
    expect(operations['products.reviews.list']).toBe(1)
    expect(operations['products.structured-data.get']).toBeUndefined()
  })

  it('links to the next page with its cursor, keeping the page’s other search params', async () => {
    const body = await render({ searchParams: { color: 'red' } })
    const href = nextHrefOf(body) ?? ''
    const params = new URLSearchParams(href.slice(1))
    expect(params.get('color')).toBe('red')
    expect(params.get('vr_cursor')).toMatch(/.+/)
  })

  it('shows the next page when the page passes the search params of that link', async () => {
    const first = await render({})
    const params = new URLSearchParams((nextHrefOf(first) ?? '').slice(1))
    const second = await render({ searchParams: params })
    const api = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 10,
    })
    expect(authorsOf(second)).toEqual((await api.getNextPage()).data.map(authorName))
    expect(second.querySelector('a.vr-review-list__previous')).not.toBeNull()
  })

  it('takes Next.js search params as a promise', async () => {
    const body = await render({ searchParams: Promise.resolve({ vr_rate: '5' }) })
    const rates = [...body.querySelectorAll('.vr-review-list__items > li > .vr-review')].map((node) =>
      node.getAttribute('data-rate'),
    )
    expect(rates.length).toBeGreaterThan(0)
    expect(new Set(rates)).toEqual(new Set(['5']))
  })

  it('sorts and filters as the search params say, and marks the choices as current', async () => {
    const body = await render({ searchParams: { vr_sort: 'lowest', vr_rate: '3,4' } })
    const rates = [...body.querySelectorAll('.vr-review-list__items > li > .vr-review')].map((node) =>
      Number(node.getAttribute('data-rate')),
    )
    expect(rates.length).toBeGreaterThan(0)
    expect(rates.every((rate) => rate === 3 || rate === 4)).toBe(true)
    expect(rates).toEqual([...rates].sort((a, b) => a - b))
    const current = [...body.querySelectorAll('.vr-review-controls a[aria-current="true"]')].map(
      (node) => node.textContent,
    )
    expect(current).toEqual(['Lowest rating'])
    const hrefOf = (label: string) =>
      [...body.querySelectorAll('.vr-review-controls a')]
        .find((node) => node.textContent === label)
        ?.getAttribute('href')
    expect(hrefOf('Highest rating')).toBe('?vr_sort=highest&vr_rate=3,4')
    expect(hrefOf('All ratings')).toBe('?vr_sort=lowest')
    expect(hrefOf('5 stars')).toBe('?vr_sort=lowest&vr_rate=5')
  })

  it('ignores search params it cannot read and shows the first page', async () => {
    const plain = await render({})
    const odd = await render({ searchParams: { vr_sort: 'best', vr_rate: '9,x', vr_cursor: '<script>' } })
    expect(authorsOf(odd)).toEqual(authorsOf(plain))
    expect((await sb.stats()).operations['products.reviews.list']).toBe(2)
  })

  it('shows the first page when the API refuses the cursor, without reporting an error', async () => {
    const onError = vi.fn()
    const plain = await render({})
    const body = await render({ searchParams: { vr_cursor: 'not-a-cursor' }, onError })
    expect(authorsOf(body)).toEqual(authorsOf(plain))
    expect(body.querySelector('a.vr-review-list__previous')).toBeNull()
    expect(onError).not.toHaveBeenCalled()
  })

  it('signs the cursor of its next-page link for this product, order, rates and limit', async () => {
    const body = await render({ productId: 'SKU-058', searchParams: { vr_rate: '4,5' } })
    const cursor = new URLSearchParams((nextHrefOf(body) ?? '').slice(1)).get('vr_cursor')
    const api = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-058'],
      sort: 'publish_date',
      desc: 'publish_date',
      review_rate: [4, 5],
      limit: 10,
    })
    const scope = { kind: 'product', id: 'SKU-058', sort: 'newest', rates: [4, 5], limit: 10 } as const
    expect(cursor).toMatch(/^s1\./)
    expect(await cursorSigner(sb.client()).open(scope, cursor)).toBe(api.nextCursor)
  })

  it('signs the cursor of its previous-page link', async () => {
    const first = await render({})
    const second = await render({ searchParams: new URLSearchParams((nextHrefOf(first) ?? '').slice(1)) })
    const previous = second.querySelector('a.vr-review-list__previous')?.getAttribute('href') ?? ''
    expect(new URLSearchParams(previous.slice(1)).get('vr_cursor')).toMatch(/^s1\./)
  })

  it('shows the first page for an API cursor in vr_cursor that it did not sign, asking the API once', async () => {
    const plain = await render({})
    const api = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 10,
    })
    const before = (await sb.stats()).operations['products.reviews.list'] ?? 0
    const body = await render({ searchParams: { vr_cursor: api.nextCursor ?? '' } })
    expect(authorsOf(body)).toEqual(authorsOf(plain))
    expect(body.querySelector('a.vr-review-list__previous')).toBeNull()
    expect((await sb.stats()).operations['products.reviews.list']).toBe(before + 1)
  })

  it('shows the first page for a signed vr_cursor moved to another order, asking the API once', async () => {
    const first = await render({})
    const cursor = new URLSearchParams((nextHrefOf(first) ?? '').slice(1)).get('vr_cursor') ?? ''
    const oldest = await render({ searchParams: { vr_sort: 'oldest' } })
    const before = (await sb.stats()).operations['products.reviews.list'] ?? 0
    const body = await render({ searchParams: { vr_sort: 'oldest', vr_cursor: cursor } })
    expect(authorsOf(body)).toEqual(authorsOf(oldest))
    expect((await sb.stats()).operations['products.reviews.list']).toBe(before + 1)
  })

  it('with the environment’s client, hands the island a cursor the endpoint of the environment’s client accepts', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', sb.sandbox.origin)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', sb.sandbox.clientId)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', sb.sandbox.clientSecret)
    try {
      const body = await renderAwaited(
        ProductReviews({ productId: 'SKU-001', url: URL_OF_PAGE, endpoint: '/api/reviews' }),
      )
      const href = body.querySelector('a.vr-review-list__more')?.getAttribute('href') ?? ''
      const cursor = new URLSearchParams(href.slice(1)).get('vr_cursor') ?? ''
      const handle = createReviewsHandler({ client: createClient() })
      const response = await handle(
        new Request(
          `https://shop.example/api/reviews?product_variation_id=SKU-001&limit=10&cursor=${encodeURIComponent(cursor)}`,
        ),
      )
      expect(response.status).toBe(200)
      expect(((await response.json()) as ReviewsEndpointBody).data.length).toBeGreaterThan(0)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('renders the neutral state for a product without reviews', async () => {
    const body = await render({ productId: withoutReviews })
    expect(withoutReviews).not.toBe('')
    expect(body.querySelector('.vr-rating-summary--empty')?.textContent).toContain('No reviews yet')
    expect(body.querySelector('.vr-review-list')).toBeNull()
    expect(jsonLdOf(body)).toEqual([])
  })

  it('still gives the page its Product node when the page passes offers and there are no reviews', async () => {
    const offers = { '@type': 'Offer' as const, price: 49, priceCurrency: 'EUR' }
    const body = await render({ productId: withoutReviews, product: { name: 'Kettle', offers } })
    expect(jsonLdOf(body)).toEqual([
      { '@context': 'https://schema.org', '@type': 'Product', '@id': URL_OF_PAGE, name: 'Kettle', offers },
    ])
  })

  it('renders no bare Product node for product facts without offers and no reviews', async () => {
    const body = await render({ productId: withoutReviews, product: { name: 'Kettle', sku: 'K-1' } })
    expect(jsonLdOf(body)).toEqual([])
  })

  it('takes the JSON-LD from the structured-datas operation with jsonLd: api', async () => {
    const body = await render({ jsonLd: 'api' })
    const data = await sb.client().products.structuredData.get({
      product_variation_id: 'SKU-001',
      canonical_url: URL_OF_PAGE,
    })
    expect(jsonLdOf(body)).toEqual([
      JSON.parse(JSON.stringify(fromStructuredData(data, { url: URL_OF_PAGE }))),
    ])
  })

  it('shows the reviews without JSON-LD when only the structured data fails', async () => {
    await sb.faults([{ operation: 'products.structured-data.get', status: 500 }])
    const onError = vi.fn()
    const body = await render({ jsonLd: 'api', client: sb.client({ maxRetries: 0 }), onError })
    expect(authorsOf(body)).toHaveLength(10)
    expect(jsonLdOf(body)).toEqual([])
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('renders no JSON-LD without url, and warns in development', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const body = await render({ url: undefined })
    expect(jsonLdOf(body)).toEqual([])
    expect(authorsOf(body)).toHaveLength(10)
    expect(warn.mock.calls.flat().join(' ')).toMatch(/without `url`/)
  })

  it('renders nothing and logs the failure once when the API fails', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 503 }])
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const element = await ProductReviews({ productId: 'SKU-001', client: sb.client({ maxRetries: 0 }) })
    expect(element).toBeNull()
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]?.[0])).toContain('ProductReviews')
  })

  it('hands the failure to onError instead, with the component’s name', async () => {
    await sb.faults([{ operation: 'products.list', status: 500 }])
    const onError = vi.fn()
    const element = await ProductReviews({
      productId: 'SKU-001',
      client: sb.client({ maxRetries: 0 }),
      onError,
    })
    expect(element).toBeNull()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[1]).toEqual({ component: 'ProductReviews' })
  })

  it('reports the missing credentials, not a cursor key, when rendered without credentials', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', '')
    vi.stubEnv('VERIFIED_REVIEWS_CURSOR_SECRET', '')
    try {
      const onError = vi.fn()
      const client = createClient({ origin: sb.sandbox.origin })
      expect(await ProductReviews({ productId: 'SKU-001', client, onError })).toBeNull()
      expect(onError).toHaveBeenCalledTimes(1)
      expect(onError.mock.calls[0]?.[0]).toMatchObject({ name: 'ValidationError', field: 'clientId' })
      expect(String(onError.mock.calls[0]?.[0])).not.toContain('cursorSecret')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('throws again what a framework throws on purpose during rendering', async () => {
    const redirect = Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;replace;/x;307;' })
    const client = { products: { list: () => Promise.reject(redirect) } } as unknown as VerifiedReviewsClient
    await expect(ProductReviews({ productId: 'SKU-001', client, onError: () => {} })).rejects.toBe(redirect)
  })

  it('builds its client from the environment when none is given', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', sb.sandbox.origin)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', sb.sandbox.clientId)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', sb.sandbox.clientSecret)
    try {
      const body = await renderAwaited(ProductReviews({ productId: 'SKU-001', url: URL_OF_PAGE }))
      expect(authorsOf(body)).toHaveLength(10)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('with an endpoint, renders the island as a plain "More reviews" link to the next page', async () => {
    const body = await render({ endpoint: '/api/reviews' })
    const link = body.querySelector('a.vr-review-list__more')
    expect(link?.textContent).toBe('More reviews')
    expect(link?.getAttribute('href')).toMatch(/^\?vr_cursor=/)
    expect(body.querySelector('.vr-review-list__status[role="status"]')).not.toBeNull()
    expect(authorsOf(body)).toHaveLength(10)
  })

  it('refuses a page size the island’s endpoint cannot serve', async () => {
    await expect(ProductReviews({ productId: 'SKU-001', limit: 51 })).rejects.toThrow(RangeError)
  })
})
