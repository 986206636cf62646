import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type Answer,
  admin,
  type BrandRating,
  type BrandReview,
  comparator,
  expectError,
  ids,
  type ProductReview,
  type ProductSummary,
  PUBLISHED,
  PUBLISHED_OPERATIONS,
  type PublishedClient,
  parseLinks,
  publishedClient,
  type Query,
  rawRequest,
  resetSandbox,
  type Sandbox,
  startSandbox,
  type Walk,
} from './helpers.ts'

const LISTS = ['/products', '/products/reviews', '/brands/reviews', '/brands']

let sb: Sandbox
let api: PublishedClient
let reviewWalk: Walk<ProductReview>
let reviews: ProductReview[]
let brandReviews: BrandReview[]
let products: ProductSummary[]
let brands: BrandRating[]

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  reviewWalk = await api.walk<ProductReview>('/products/reviews', { limit: 200 })
  reviews = reviewWalk.items
  brandReviews = (await api.walk<BrandReview>('/brands/reviews', { limit: 200 })).items
  products = (await api.walk<ProductSummary>('/products', { limit: 200 })).items
  brands = (await api.walk<BrandRating>('/brands', { limit: 200 })).items
})

afterAll(async () => {
  await sb?.close()
})

function links(answer: Answer): Record<string, string> {
  return parseLinks(answer.headers.get('link'))
}

function page(walk: Walk<ProductReview>, index: number): Answer<ProductReview[]> {
  const found = walk.pages[index < 0 ? walk.pages.length + index : index]
  if (!found) throw new Error(`no page ${index}`)
  return found
}

function withParam(url: string, name: string, value: string): string {
  const target = new URL(url)
  target.searchParams.set(name, value)
  return target.toString()
}

/** The first `count` pages of a list, following rel="next". */
async function firstPages<T>(path: string, query: Query, count: number): Promise<T[]> {
  let answer = await api.get<T[]>(path, query)
  const items: T[] = []
  for (let index = 0; ; index++) {
    expect(answer.status, answer.text).toBe(200)
    items.push(...answer.body)
    const next = links(answer).next
    if (index + 1 === count || next === undefined) return items
    answer = await api.fetch<T[]>(next)
  }
}

describe('limit', () => {
  it.each([
    { path: '/products', expected: 10 },
    { path: '/products/reviews', expected: 10 },
    { path: '/brands/reviews', expected: 10 },
    { path: '/brands', expected: 6 },
  ])('GET $path without limit answers a page of at most 10 items', async ({ path, expected }) => {
    const answer = await api.get<unknown[]>(path)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toHaveLength(expected)
  })

  it('limit=1 answers one item and a next link', async () => {
    const answer = await api.get<unknown[]>('/products/reviews', { limit: 1 })
    expect(answer.body).toHaveLength(1)
    expect(links(answer).next).toBeDefined()
  })

  it('limit=200 answers two hundred items', async () => {
    const answer = await api.get<unknown[]>('/products/reviews', { limit: 200 })
    expect(answer.body).toHaveLength(200)
  })

  it.each(['0', '201', 'abc', '-1', '1.5', ''])(
    'limit=%j is 400 with field limit on every list',
    async (value) => {
      for (const path of LISTS)
        expectError(await api.get(path, { limit: value }), 400, 'invalid_parameter', 'limit')
    },
  )
})

describe('walking /products/reviews with limit 200', () => {
  it('returns the 3,000 seeded reviews, each exactly once', () => {
    expect(reviews).toHaveLength(3000)
    expect(new Set(ids(reviews)).size).toBe(3000)
  })

  it('returns as many reviews as the count_total of every product adds up to', () => {
    const total = products.reduce((sum, product) => sum + product.ratings.count_total, 0)
    expect(reviews.length).toBe(total)
  })

  it('fills every page but the last', () => {
    expect(reviewWalk.pages).toHaveLength(15)
    for (const answer of reviewWalk.pages.slice(0, -1)) expect(answer.body).toHaveLength(200)
  })

  it('gives the first page no rel=prev and the last no rel=next', () => {
    expect(links(page(reviewWalk, 0)).prev).toBeUndefined()
    expect(links(page(reviewWalk, 0)).next).toBeDefined()
    expect(links(page(reviewWalk, -1)).next).toBeUndefined()
    expect(links(page(reviewWalk, -1)).prev).toBeDefined()
  })

  it('gives a middle page both rel=prev and rel=next', () => {
    expect(links(page(reviewWalk, 5)).prev).toBeDefined()
    expect(links(page(reviewWalk, 5)).next).toBeDefined()
  })

  it('puts absolute URLs on the sandbox origin in Link, the request URL with only the cursor replaced', async () => {
    const answer = await api.get('/products/reviews', { limit: 3, review_rate: '4,5', sort: 'review_date' })
    const { next } = links(answer)
    expect(next).toMatch(/^http:\/\//)
    const url = new URL(next ?? '')
    expect(url.origin).toBe(sb.origin)
    expect(url.pathname).toBe(`${PUBLISHED}/products/reviews`)
    expect(url.searchParams.get('limit')).toBe('3')
    expect(url.searchParams.get('review_rate')).toBe('4,5')
    expect(url.searchParams.get('sort')).toBe('review_date')
    expect(url.searchParams.get('cursor')).toEqual(expect.any(String))
    const second = await api.fetch(next ?? '')
    const { prev } = links(second)
    const back = new URL(prev ?? '')
    expect(back.origin).toBe(sb.origin)
    expect(back.searchParams.get('review_rate')).toBe('4,5')
  })

  it('puts the origin of the request’s Host header in Link', async () => {
    const { port } = new URL(sb.origin)
    const answer = await rawRequest(sb, `${PUBLISHED}/products/reviews?limit=2`, {
      authorization: `Bearer ${api.token}`,
      host: `localhost:${port}`,
    })
    expect(answer.status).toBe(200)
    expect(String(answer.headers.link)).toMatch(
      new RegExp(`^<http://localhost:${port}${PUBLISHED}/products/reviews\\?`),
    )
  })

  it('keeps the other parameters as sent in Link', async () => {
    const answer = await api.get('/products/reviews', { limit: 2, review_rate: '5,4' })
    expect(new URL(links(answer).next ?? '').searchParams.get('review_rate')).toBe('5,4')
  })

  it('rel=prev of the second page gives back the first page', async () => {
    const back = await api.fetch<ProductReview[]>(links(page(reviewWalk, 1)).prev ?? '')
    expect(back.status, back.text).toBe(200)
    expect(ids(back.body)).toEqual(ids(page(reviewWalk, 0).body))
  })

  it('the first page reached through rel=prev has no rel=prev', async () => {
    const back = await api.fetch<ProductReview[]>(links(page(reviewWalk, 1)).prev ?? '')
    expect(links(back).prev).toBeUndefined()
    expect(links(back).next).toBeDefined()
  })

  it('rel=prev of a middle page gives back the page before it', async () => {
    const back = await api.fetch<ProductReview[]>(links(page(reviewWalk, 7)).prev ?? '')
    expect(ids(back.body)).toEqual(ids(page(reviewWalk, 6).body))
  })

  it('rel=prev of the last page gives back the page before it', async () => {
    const back = await api.fetch<ProductReview[]>(links(page(reviewWalk, -1)).prev ?? '')
    expect(ids(back.body)).toEqual(ids(page(reviewWalk, -2).body))
  })

  it('a page reached through rel=prev links forward to the page it came from', async () => {
    const back = await api.fetch<ProductReview[]>(links(page(reviewWalk, 4)).prev ?? '')
    const forward = await api.fetch<ProductReview[]>(links(back).next ?? '')
    expect(ids(forward.body)).toEqual(ids(page(reviewWalk, 4).body))
  })

  it('the same cursor answers the same page twice', async () => {
    const next = links(page(reviewWalk, 2)).next ?? ''
    const again = await api.fetch<ProductReview[]>(next)
    expect(ids(again.body)).toEqual(ids(page(reviewWalk, 3).body))
  })
})

describe('cursors', () => {
  const next = (): string => links(page(reviewWalk, 0)).next ?? ''

  it('a cursor used with a different limit is 400 invalid_cursor', async () => {
    expectError(await api.fetch(withParam(next(), 'limit', '100')), 400, 'invalid_cursor', 'cursor')
  })

  it('a cursor issued without limit goes on with limit=10, the same limit', async () => {
    const first = await api.get('/products/reviews')
    const next = links(first).next ?? ''
    const same = await api.fetch<ProductReview[]>(withParam(next, 'limit', '10'))
    expect(same.status, same.text).toBe(200)
    expect(ids(same.body)).toEqual(ids(reviews.slice(10, 20)))
  })

  it('a cursor goes on with the values of a list filter in another order', async () => {
    const first = await api.get('/products/reviews', { limit: 5, review_rate: '4,5' })
    const next = links(first).next ?? ''
    const expected = await api.fetch<ProductReview[]>(next)
    const reordered = await api.fetch<ProductReview[]>(withParam(next, 'review_rate', '5,4'))
    expect(reordered.status, reordered.text).toBe(200)
    expect(ids(reordered.body)).toEqual(ids(expected.body))
  })

  it('a cursor used without its limit is 400 invalid_cursor', async () => {
    const url = new URL(next())
    url.searchParams.delete('limit')
    expectError(await api.fetch(url.toString()), 400, 'invalid_cursor', 'cursor')
  })

  it.each(['garbage', '!!!', 'eyJmb28iOiJiYXIifQ'])(
    'a cursor that does not decode (%s) is 400 invalid_cursor',
    async (cursor) => {
      expectError(await api.get('/products/reviews', { cursor, limit: 200 }), 400, 'invalid_cursor', 'cursor')
    },
  )

  it('a cursor used with a different filter value is 400 invalid_cursor', async () => {
    const first = await api.get('/products/reviews', { limit: 5, review_rate: '5' })
    const changed = withParam(links(first).next ?? '', 'review_rate', '4')
    expectError(await api.fetch(changed), 400, 'invalid_cursor', 'cursor')
  })

  it('a cursor used with an added filter is 400 invalid_cursor', async () => {
    expectError(await api.fetch(withParam(next(), 'is_verified', 'true')), 400, 'invalid_cursor', 'cursor')
  })

  it('a cursor used with a different sort is 400 invalid_cursor', async () => {
    expectError(await api.fetch(withParam(next(), 'sort', 'review_rate')), 400, 'invalid_cursor', 'cursor')
  })

  it('a cursor used with a different desc is 400 invalid_cursor', async () => {
    const first = await api.get('/products/reviews', { limit: 5, sort: 'review_rate,publish_date' })
    const changed = withParam(links(first).next ?? '', 'desc', 'review_rate')
    expectError(await api.fetch(changed), 400, 'invalid_cursor', 'cursor')
  })

  it('a result that fits in one page has neither rel=next nor rel=prev', async () => {
    const answer = await api.get('/brands', { limit: 10 })
    expect(answer.body).toHaveLength(6)
    expect(links(answer)).toEqual({})
  })

  it('an empty result is an empty array with no Link header', async () => {
    const answer = await api.get('/products/reviews', { product_variation_id: 'NO-SUCH-PRODUCT' })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual([])
    expect(answer.headers.get('link')).toBeNull()
  })
})

describe('reviews published during a walk', () => {
  afterEach(async () => {
    await resetSandbox(sb, api)
  })

  it('appear once, at the end, of a walk sorted by publish_date ascending', async () => {
    const first = await api.get<ProductReview[]>('/products/reviews', { limit: 200, sort: 'publish_date' })
    const added = await admin<ProductReview[]>(sb, 'POST', 'product-reviews', [
      { product_variation_id: 'SKU-001' },
      { product_variation_id: 'SKU-002' },
    ])
    expect(added.status, added.text).toBe(201)
    const rest = await api.walkFrom<ProductReview>(links(first).next ?? '')
    const walked = [...first.body, ...rest.items]
    expect(walked).toHaveLength(3002)
    expect(new Set(ids(walked)).size).toBe(3002)
    expect(ids(walked.slice(-2))).toEqual(ids(added.body))
  })

  it('neither shift nor repeat the items of a walk sorted by publish_date descending', async () => {
    const query = { limit: 200, sort: 'publish_date', desc: 'publish_date' }
    const first = await api.get<ProductReview[]>('/products/reviews', query)
    const added = await admin(sb, 'POST', 'product-reviews', [{ product_variation_id: 'SKU-003' }])
    expect(added.status, added.text).toBe(201)
    const rest = await api.walkFrom<ProductReview>(links(first).next ?? '')
    const walked = ids([...first.body, ...rest.items])
    expect(walked).toHaveLength(3000)
    expect(new Set(walked)).toEqual(new Set(ids(reviews)))
  })
})

describe('other lists', () => {
  it('walking /brands/reviews with limit 200 returns the 500 seeded reviews once each', () => {
    expect(brandReviews).toHaveLength(500)
    expect(new Set(ids(brandReviews)).size).toBe(500)
  })

  it('rel=prev of the second page of /brands/reviews gives back the first page', async () => {
    const walk = await api.walk<BrandReview>('/brands/reviews', { limit: 150 })
    expect(walk.pages).toHaveLength(4)
    const back = await api.fetch<BrandReview[]>(links(walk.pages[1] as Answer).prev ?? '')
    expect(ids(back.body)).toEqual(ids(walk.pages[0]?.body ?? []))
    expect(links(walk.pages[0] as Answer).prev).toBeUndefined()
  })

  it('walking /products with limit 7 returns the 60 products once each, in full pages', async () => {
    const walk = await api.walk<ProductSummary>('/products', { limit: 7 })
    const names = walk.items.map((product) => product.product_variation_id)
    expect(names).toHaveLength(60)
    expect(new Set(names).size).toBe(60)
    expect(walk.pages).toHaveLength(9)
    for (const answer of walk.pages.slice(0, -1)) expect(answer.body).toHaveLength(7)
  })

  it('walking /brands with limit 2 returns the 6 entries once each', async () => {
    const walk = await api.walk<BrandRating>('/brands', { limit: 2 })
    const keys = walk.items.map((brand) => brand.shop_key)
    expect(walk.pages).toHaveLength(3)
    expect(new Set(keys)).toEqual(new Set(brands.map((brand) => brand.shop_key)))
    expect(keys).toHaveLength(6)
  })

  it('rel=prev of the last page of /brands gives back the page before it', async () => {
    const walk = await api.walk<BrandRating>('/brands', { limit: 2 })
    const back = await api.fetch<BrandRating[]>(links(walk.pages[2] as Answer).prev ?? '')
    expect(back.body.map((brand) => brand.shop_key)).toEqual(
      walk.pages[1]?.body.map((brand) => brand.shop_key),
    )
  })
})

describe('unknown parameters', () => {
  it.each(PUBLISHED_OPERATIONS)(
    'GET $path refuses an unknown parameter with 400 naming it',
    async ({ path, query }) => {
      const answer = await api.get(path, { ...query, colour: 'red' }, { accept: 'application/ld+json' })
      expectError(answer, 400, 'invalid_parameter', 'colour')
    },
  )
})

describe('default order', () => {
  it('product reviews come by publish_date ascending, ties by review_id', () => {
    expect(ids(reviews)).toEqual(ids([...reviews].sort(comparator(['publish_date'], [], 'review_id'))))
  })

  it('brand reviews come by publish_date ascending, ties by review_id', () => {
    expect(ids(brandReviews)).toEqual(
      ids([...brandReviews].sort(comparator(['publish_date'], [], 'review_id'))),
    )
  })

  it('products come by product_variation_id', () => {
    const names = products.map((product) => product.product_variation_id)
    expect(names).toEqual([...names].sort())
  })

  it('brand entries come by shop_key, the brand (empty shop_key) first', () => {
    const keys = brands.map((brand) => brand.shop_key)
    expect(keys).toEqual([...keys].sort())
    expect(keys[0]).toBe('')
  })
})

describe('sort and desc', () => {
  it('walking by review_rate, full of ties, returns every review exactly once, in order', async () => {
    const walked = (
      await api.walk<ProductReview>('/products/reviews', {
        limit: 200,
        sort: 'review_rate',
        desc: 'review_rate',
      })
    ).items
    expect(ids(walked)).toEqual(
      ids([...reviews].sort(comparator(['review_rate'], ['review_rate'], 'review_id'))),
    )
  })

  it('rel=prev inside a run of ties gives back the page before it', async () => {
    const query = { limit: 150, sort: 'review_rate' }
    const first = await api.get<ProductReview[]>('/products/reviews', query)
    const second = await api.fetch<ProductReview[]>(links(first).next ?? '')
    const third = await api.fetch<ProductReview[]>(links(second).next ?? '')
    const back = await api.fetch<ProductReview[]>(links(third).prev ?? '')
    expect(ids(back.body)).toEqual(ids(second.body))
    const backAgain = await api.fetch<ProductReview[]>(links(back).prev ?? '')
    expect(ids(backAgain.body)).toEqual(ids(first.body))
    expect(links(backAgain).prev).toBeUndefined()
  })

  it.each([
    { sort: 'review_rate', desc: '' },
    { sort: 'review_rate', desc: 'review_rate' },
    { sort: 'review_date', desc: '' },
    { sort: 'review_date', desc: 'review_date' },
    { sort: 'order_date', desc: 'order_date' },
    { sort: 'publish_date', desc: 'publish_date' },
    { sort: 'product_variation_id', desc: '' },
    { sort: 'product_variation_id', desc: 'product_variation_id' },
    { sort: 'review_id', desc: 'review_id' },
    { sort: 'review_rate,order_date', desc: 'review_rate' },
  ])(
    '/products/reviews sorted by $sort (desc $desc) follows that order across pages',
    async ({ sort, desc }) => {
      const query: Query = desc ? { sort, desc, limit: 200 } : { sort, limit: 200 }
      const got = await firstPages<ProductReview>('/products/reviews', query, 2)
      const expected = [...reviews]
        .sort(comparator(sort.split(','), desc.split(','), 'review_id'))
        .slice(0, 400)
      expect(ids(got)).toEqual(ids(expected))
    },
  )

  it.each([
    { sort: 'shop_key', desc: '' },
    { sort: 'review_rate', desc: 'review_rate' },
    { sort: 'order_date', desc: '' },
    { sort: 'shop_key,review_date', desc: 'shop_key,review_date' },
  ])('/brands/reviews sorted by $sort (desc $desc) follows that order', async ({ sort, desc }) => {
    const query: Query = desc ? { sort, desc, limit: 200 } : { sort, limit: 200 }
    const got = (await api.walk<BrandReview>('/brands/reviews', query)).items
    expect(ids(got)).toEqual(
      ids([...brandReviews].sort(comparator(sort.split(','), desc.split(','), 'review_id'))),
    )
  })

  it.each([
    { sort: 'average', desc: 'average' },
    { sort: 'average', desc: '' },
    { sort: 'count_total', desc: 'count_total' },
    { sort: 'product_variation_id', desc: 'product_variation_id' },
  ])('/products sorted by $sort (desc $desc) follows that order across pages', async ({ sort, desc }) => {
    const query: Query = desc ? { sort, desc, limit: 25 } : { sort, limit: 25 }
    const got = (await api.walk<ProductSummary>('/products', query)).items.map((p) => p.product_variation_id)
    const expected = [...products].sort(comparator(sort.split(','), desc.split(','), 'product_variation_id'))
    expect(got).toEqual(expected.map((product) => product.product_variation_id))
  })

  it.each([
    { sort: 'count_total_since_creation', desc: 'count_total_since_creation' },
    { sort: 'oldest_review_publish_date', desc: '' },
    { sort: 'shop_key', desc: 'shop_key' },
  ])('/brands sorted by $sort (desc $desc) follows that order across pages', async ({ sort, desc }) => {
    const query: Query = desc ? { sort, desc, limit: 4 } : { sort, limit: 4 }
    const got = (await api.walk<BrandRating>('/brands', query)).items.map((brand) => brand.shop_key)
    const expected = [...brands].sort(comparator(sort.split(','), desc.split(','), 'shop_key'))
    expect(got).toEqual(expected.map((brand) => brand.shop_key))
  })

  it.each([
    { path: '/products/reviews', field: 'shop_key' },
    { path: '/brands/reviews', field: 'product_variation_id' },
    { path: '/products', field: 'review_rate' },
    { path: '/brands', field: 'average' },
  ])('sorting $path by $field, not one of its fields, is 400 with field sort', async ({ path, field }) => {
    expectError(await api.get(path, { sort: field }), 400, 'invalid_parameter', 'sort')
  })

  it.each(LISTS)(
    'an unknown sort field on %s is 400 with field sort, naming the sortable fields',
    async (path) => {
      const answer = await api.get<{ message: string }>(path, { sort: 'colour' })
      expectError(answer, 400, 'invalid_parameter', 'sort')
      expect(answer.body.message).toMatch(/colour.*(publish_date|product_variation_id|shop_key)/)
    },
  )

  it('desc=publish_date without sort orders newest first, as sort=publish_date&desc=publish_date', async () => {
    const answer = await api.get<ProductReview[]>('/products/reviews', { desc: 'publish_date', limit: 200 })
    expect(answer.status, answer.text).toBe(200)
    const expected = [...reviews]
      .sort(comparator(['publish_date'], ['publish_date'], 'review_id'))
      .slice(0, 200)
    expect(ids(answer.body)).toEqual(ids(expected))
  })

  it('desc without sort sorts by the desc fields, descending, across pages', async () => {
    const walked = (
      await api.walk<BrandReview>('/brands/reviews', { desc: 'review_rate,order_date', limit: 200 })
    ).items
    const expected = [...brandReviews].sort(
      comparator(['review_rate', 'order_date'], ['review_rate', 'order_date'], 'review_id'),
    )
    expect(ids(walked)).toEqual(ids(expected))
  })

  it('desc without sort on /products sorts by that field, descending', async () => {
    const answer = await api.get<ProductSummary[]>('/products', { desc: 'average', limit: 200 })
    expect(answer.status, answer.text).toBe(200)
    const expected = [...products].sort(comparator(['average'], ['average'], 'product_variation_id'))
    expect(answer.body.map((p) => p.product_variation_id)).toEqual(
      expected.slice(0, 200).map((p) => p.product_variation_id),
    )
  })

  it('an unknown desc field without sort is 400 with field desc', async () => {
    expectError(await api.get('/products/reviews', { desc: 'colour' }), 400, 'invalid_parameter', 'desc')
  })

  it('a field named twice in sort is 400 with field sort', async () => {
    const answer = await api.get('/products/reviews', { sort: 'review_rate,publish_date,review_rate' })
    expectError(answer, 400, 'invalid_parameter', 'sort')
  })

  it('a desc field missing from sort is 400 with field desc', async () => {
    const answer = await api.get('/products/reviews', { sort: 'publish_date', desc: 'review_rate' })
    expectError(answer, 400, 'invalid_parameter', 'desc')
  })

  it('an unknown desc field is 400 with field desc', async () => {
    const answer = await api.get('/products/reviews', { sort: 'publish_date', desc: 'colour' })
    expectError(answer, 400, 'invalid_parameter', 'desc')
  })
})
