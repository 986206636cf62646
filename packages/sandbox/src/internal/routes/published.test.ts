import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../index.ts'

let sb: Sandbox
let token: string
beforeAll(async () => {
  sb = await createSandbox({ seed: 11, rateLimit: 0 })
  token = await fetchToken()
})
afterAll(() => sb.close())
afterEach(async () => {
  await sb.reset()
  token = await fetchToken()
})

const BASE = '/verified-reviews/v1/published'

async function fetchToken(): Promise<string> {
  const res = await fetch(`${sb.origin}/realms/skeepers/protocol/openid-connect/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
  })
  return (await res.json()).access_token
}

function get(pathOrUrl: string, headers: Record<string, string> = {}) {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${sb.origin}${BASE}${pathOrUrl}`
  return fetch(url, { headers: { Authorization: `Bearer ${token}`, ...headers } })
}

function link(res: Response, rel: 'next' | 'prev'): string | undefined {
  const header = res.headers.get('link') ?? ''
  return new RegExp(`<([^>]+)>; rel="${rel}"`).exec(header)?.[1]
}

interface Walked {
  review_id: string
  review_rate: number
}

async function walk(path: string): Promise<{ ids: string[]; items: Walked[]; pages: number }> {
  const items: Walked[] = []
  let pages = 0
  let next: string | undefined = path
  while (next) {
    const res = await get(next)
    expect(res.status).toBe(200)
    items.push(...((await res.json()) as Walked[]))
    pages++
    next = link(res, 'next')
  }
  return { ids: items.map((r) => r.review_id), items, pages }
}

const addReviews = (items: unknown[]) =>
  fetch(`${sb.origin}/__sandbox/product-reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(items),
  })

describe('authentication', () => {
  it('asks for a bearer token', async () => {
    const res = await fetch(`${sb.origin}${BASE}/products`)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(await res.json()).toMatchObject({ error: 'unauthorized' })
  })

  it('refuses a token of the purchase events audience', async () => {
    const other = await fetch(`${sb.origin}/am/oauth2/alpha/access_token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'openid' }),
    })
    const res = await fetch(`${sb.origin}${BASE}/products`, {
      headers: { Authorization: `Bearer ${(await other.json()).access_token}` },
    })
    expect(res.status).toBe(401)
  })

  it('refuses an expired token', async () => {
    await fetch(`${sb.origin}/__sandbox/tokens/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    expect((await get('/products')).status).toBe(401)
  })
})

describe('GET /products/reviews', () => {
  it('walks all 3,000 reviews through Link rel="next", each once', async () => {
    const { ids, pages } = await walk('/products/reviews?limit=200')
    expect(ids).toHaveLength(3000)
    expect(new Set(ids).size).toBe(3000)
    expect(pages).toBe(15)
  })

  it('gives 10 reviews by default, oldest publication first', async () => {
    const reviews = await (await get('/products/reviews')).json()
    expect(reviews).toHaveLength(10)
    const dates = reviews.map((r: { publish_date: string }) => r.publish_date)
    expect(dates).toEqual([...dates].sort())
  })

  it('leads back with rel="prev" to the page before', async () => {
    const first = await get('/products/reviews?limit=5')
    const firstIds = (await first.json()).map((r: { review_id: string }) => r.review_id)
    expect(link(first, 'prev')).toBeUndefined()
    const second = await get(link(first, 'next') as string)
    const back = await get(link(second, 'prev') as string)
    expect((await back.json()).map((r: { review_id: string }) => r.review_id)).toEqual(firstIds)
  })

  it('refuses a cursor used with another limit', async () => {
    const first = await get('/products/reviews?limit=5')
    const next = new URL(link(first, 'next') as string)
    next.searchParams.set('limit', '6')
    const res = await get(next.toString())
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_cursor', field: 'cursor' })
  })

  it('neither repeats nor skips reviews when reviews are published during a walk', async () => {
    const ids: string[] = []
    let next: string | undefined = '/products/reviews?limit=200&sort=publish_date&desc=publish_date'
    let added = false
    while (next) {
      const res = await get(next)
      ids.push(...(await res.json()).map((r: { review_id: string }) => r.review_id))
      next = link(res, 'next')
      if (!added) {
        await addReviews([{ product_variation_id: 'SKU-001' }, { product_variation_id: 'SKU-002' }])
        added = true
      }
    }
    expect(ids).toHaveLength(3000)
    expect(new Set(ids).size).toBe(3000)
  })

  it('puts reviews added since first when sorted newest first', async () => {
    const [added] = await (await addReviews([{ product_variation_id: 'SKU-004' }])).json()
    const [newest] = await (await get('/products/reviews?limit=1&sort=publish_date&desc=publish_date')).json()
    expect(newest.review_id).toBe(added.review_id)
  })

  it('combines date operators with AND', async () => {
    const res = await get(
      '/products/reviews?limit=200&publish_date.gte=2025-01-01&publish_date.lt=2025-02-01',
    )
    const reviews = await res.json()
    expect(reviews.length).toBeGreaterThan(0)
    for (const r of reviews) {
      expect(r.publish_date >= '2025-01-01' && r.publish_date < '2025-02-01').toBe(true)
    }
  })

  it('searches review text and merchant replies, ignoring case', async () => {
    await addReviews([
      {
        product_variation_id: 'SKU-005',
        moderations: [
          {
            comment: 'Un Geste Commercial vous attend',
            date: '2026-01-01T00:00:00Z',
            origin: 'merchant',
            origin_type: 'moderator',
          },
        ],
      },
    ])
    const reviews = await (await get('/products/reviews?search=geste%20commercial')).json()
    expect(reviews).toHaveLength(1)
  })

  it('filters by product code, rating and flags together', async () => {
    const products = await (await get('/products?limit=200')).json()
    const product = products.find(
      (p: { ratings: { count_total: number } }) => p.ratings.count_total > 20 && p.ratings.count_total < 150,
    )
    const all = await (
      await get(`/products/reviews?limit=200&product_variation_id=${product.product_variation_id}`)
    ).json()
    const ean = all[0].product_ean
    const res = await get(`/products/reviews?limit=200&product_ean=${ean}&review_rate=4,5&is_verified=true`)
    const expected = all.filter(
      (r: { review_rate: number; is_verified: boolean }) => r.review_rate >= 4 && r.is_verified,
    )
    expect((await res.json()).map((r: { review_id: string }) => r.review_id).sort()).toEqual(
      expected.map((r: { review_id: string }) => r.review_id).sort(),
    )
  })

  it('answers media URLs absolute on the origin the client used', async () => {
    const reviews = await (await get('/products/reviews?limit=200')).json()
    const media = reviews.flatMap((r: { medias: { small: string }[] }) => r.medias)[0]
    expect(media.small.startsWith(`${sb.origin}/__sandbox/media/`)).toBe(true)
    expect((await fetch(media.small)).status).toBe(200)
  })

  it('refuses an unknown parameter, naming it', async () => {
    const res = await get('/products/reviews?reveiw_rate=5')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_parameter', field: 'reveiw_rate' })
  })

  it('refuses a desc field that is not sorted on', async () => {
    const res = await get('/products/reviews?sort=publish_date&desc=review_rate')
    expect(await res.json()).toMatchObject({ field: 'desc' })
  })
})

describe('GET /products', () => {
  it('lists all 60 products, those without reviews with zero ratings and no summary', async () => {
    const products = await (await get('/products?limit=200')).json()
    expect(products).toHaveLength(60)
    const empty = products.filter((p: { ratings: { count_total: number } }) => p.ratings.count_total === 0)
    expect(empty).toHaveLength(6)
    for (const p of empty) {
      expect(p.ratings.average).toBe(0)
      expect(p).not.toHaveProperty('review_summary')
    }
  })

  it('agrees with the reviews it summarizes', async () => {
    const [summary] = await (await get('/products?limit=1&sort=count_total&desc=count_total')).json()
    const { items } = await walk(
      `/products/reviews?limit=200&product_variation_id=${summary.product_variation_id}`,
    )
    expect(summary.ratings.count_total).toBe(items.length)
    expect(summary.ratings.count_5).toBe(items.filter((r) => r.review_rate === 5).length)
    const average = items.reduce((sum, r) => sum + r.review_rate, 0) / items.length
    expect(summary.ratings.average).toBe(Math.round(average * 100) / 100)
  })
})

describe('GET /products/ratings', () => {
  it('answers requested products with reviews, in the requested order', async () => {
    const products = await (await get('/products?limit=200')).json()
    const reviewed = products.filter((p: { ratings: { count_total: number } }) => p.ratings.count_total > 0)
    const without = products.find((p: { ratings: { count_total: number } }) => p.ratings.count_total === 0)
    const ids = [
      reviewed[3].product_variation_id,
      without.product_variation_id,
      'NOPE',
      reviewed[1].product_variation_id,
    ]
    const ratings = await (
      await get(`/products/ratings?type=product_variation_id&value=${ids.join(',')}`)
    ).json()
    expect(ratings.map((r: { product_variation_id: string }) => r.product_variation_id)).toEqual([
      ids[0],
      ids[3],
    ])
    expect(ratings[0].count_total).toBe(reviewed[3].ratings.count_total)
  })

  it('refuses more than 200 values', async () => {
    const values = Array.from({ length: 201 }, (_, i) => `X${i}`).join(',')
    const res = await get(`/products/ratings?type=product_ean&value=${values}`)
    expect(await res.json()).toMatchObject({ status: 400, field: 'value' })
  })
})

describe('GET /brands', () => {
  it('gives the brand, counting every brand review, and each shop', async () => {
    const brands = await (await get('/brands')).json()
    expect(brands).toHaveLength(6)
    expect(brands[0]).toMatchObject({ shop_key: '', count_total_since_creation: 500 })
    const shops = brands
      .slice(1)
      .reduce((n: number, b: { count_total_since_creation: number }) => n + b.count_total_since_creation, 0)
    expect(shops).toBeLessThan(500)
  })

  it('keeps only the brand entry with linked_to_shop=false', async () => {
    const brands = await (await get('/brands?linked_to_shop=false')).json()
    expect(brands.map((b: { shop_key: string }) => b.shop_key)).toEqual([''])
  })
})

describe('GET /brands/reviews', () => {
  it('keeps only reviews of one shop with shop_key', async () => {
    const reviews = await (await get('/brands/reviews?limit=200&shop_key=shop-paris')).json()
    expect(reviews.length).toBeGreaterThan(0)
    expect(reviews.every((r: { shop_key: string }) => r.shop_key === 'shop-paris')).toBe(true)
  })
})

describe('GET /products/structured-datas', () => {
  const path =
    '/products/structured-datas?product_variation_id=SKU-001,SKU-002&canonical_url=https://shop.example/p/1'

  it('answers 406 without an Accept it can serve', async () => {
    const res = await get(path)
    expect(res.status).toBe(406)
    expect(await res.json()).toMatchObject({ error: 'not_acceptable' })
  })

  it('merges variations into one aggregate about the canonical URL', async () => {
    const res = await get(path, { Accept: 'application/ld+json' })
    expect(res.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    const blocks = await res.json()
    const ratings = await (
      await get('/products/ratings?type=product_variation_id&value=SKU-001,SKU-002')
    ).json()
    const count = ratings.reduce((n: number, r: { count_total: number }) => n + r.count_total, 0)
    expect(blocks.ratings.aggregateRating).toMatchObject({
      reviewCount: count,
      bestRating: 5,
      worstRating: 1,
      itemReviewed: { '@id': 'https://shop.example/p/1' },
    })
    expect(blocks.reviews.review).toHaveLength(5)
  })

  it('escapes review text inside script elements', async () => {
    await addReviews([
      { product_variation_id: 'SKU-001', review_content: 'Great </script><script>alert(1)</script>' },
    ])
    const res = await get(`${path}&filters=reviews&reviews_limit=1`, { Accept: 'text/javascript' })
    const text = await res.text()
    expect(text.match(/<script/g)).toHaveLength(1)
    expect(text).toContain('\\u003c/script\\u003e')
  })

  it('requires an absolute http(s) canonical_url', async () => {
    const res = await get('/products/structured-datas?product_variation_id=SKU-001&canonical_url=/p/1', {
      Accept: 'application/ld+json',
    })
    expect(await res.json()).toMatchObject({ status: 400, field: 'canonical_url' })
  })
})
