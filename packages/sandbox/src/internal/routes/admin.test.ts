import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../index.ts'
import { gtinCheckDigit, SEED_END } from '../seed.ts'

let sb: Sandbox
beforeAll(async () => {
  sb = await createSandbox({ seed: 5 })
})
afterAll(() => sb.close())
afterEach(() => sb.reset())

const post = (path: string, body: unknown) =>
  fetch(`${sb.origin}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('POST /__sandbox/product-reviews', () => {
  it('publishes each addition after every earlier review', async () => {
    const res = await post('product-reviews', [
      { product_variation_id: 'SKU-001' },
      { product_variation_id: 'SKU-002' },
    ])
    expect(res.status).toBe(201)
    const [first, second] = await res.json()
    expect(Date.parse(first.publish_date)).toBeGreaterThan(SEED_END)
    expect(Date.parse(second.publish_date)).toBeGreaterThan(Date.parse(first.publish_date))
  })

  it('keeps the given fields and fills in the rest', async () => {
    const res = await post('product-reviews', [
      { product_variation_id: 'SKU-003', review_rate: 2, review_content: 'Trop petit.', locale: 'fr_FR' },
    ])
    const [review] = await res.json()
    expect(review).toMatchObject({
      product_variation_id: 'SKU-003',
      review_rate: 2,
      review_content: 'Trop petit.',
      translated_review: { fr: 'Trop petit.' },
    })
    expect(review.review_id).toEqual(expect.any(String))
    expect(Date.parse(review.order_date)).toBeLessThanOrEqual(Date.parse(review.review_date))
    expect(Date.parse(review.review_date)).toBeLessThanOrEqual(Date.parse(review.publish_date))
  })

  it('adds an unknown product to the catalogue with valid codes', async () => {
    const [review] = await (await post('product-reviews', [{ product_variation_id: 'NEW-1' }])).json()
    expect(review.product_ean).toMatch(/^\d{13}$/)
    expect(gtinCheckDigit(review.product_ean.slice(0, 12))).toBe(review.product_ean.slice(12))
  })

  it('requires product_variation_id, naming the item', async () => {
    const res = await post('product-reviews', [{ product_variation_id: 'SKU-001' }, { review_rate: 5 }])
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_body', field: '[1].product_variation_id' })
  })

  it('refuses a publish_date: additions are published now', async () => {
    const res = await post('product-reviews', [
      { product_variation_id: 'SKU-001', publish_date: '2025-01-01T00:00:00Z' },
    ])
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: '[0].publish_date' })
  })

  it('refuses a review_id already taken, until a reset', async () => {
    const item = [{ product_variation_id: 'SKU-001', review_id: 'custom-1' }]
    expect((await post('product-reviews', item)).status).toBe(201)
    expect((await post('product-reviews', item)).status).toBe(400)
    await sb.reset()
    expect((await post('product-reviews', item)).status).toBe(201)
  })

  it('refuses members that would reach the prototype', async () => {
    const res = await post(
      'product-reviews',
      '[{"product_variation_id":"SKU-001","__proto__":{"review_rate":1}}]',
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: '[0].__proto__' })
  })

  it('refuses a body that is not a JSON array', async () => {
    const res = await post('product-reviews', '{"product_variation_id":"SKU-001"')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_body', field: 'body' })
  })
})

describe('POST and DELETE /__sandbox/product-reviews/{review_id}', () => {
  const reviewsOf = async (product: string) => {
    const auth = await fetch(`${sb.origin}/realms/skeepers/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
    })
    const { access_token } = (await auth.json()) as { access_token: string }
    const url = `${sb.origin}/verified-reviews/v1/published/products/reviews?product_variation_id=${product}&limit=200`
    const res = await fetch(url, { headers: { Authorization: `Bearer ${access_token}` } })
    return (await res.json()) as { review_id: string; review_content: string; publish_date: string }[]
  }

  it('edits a review in place, keeping its publish_date, and removes one from its lists', async () => {
    const product = 'SKU-002'
    const [first, second] = await reviewsOf(product)
    const edited = await post(`product-reviews/${first?.review_id}`, { review_content: 'Edited upstream.' })
    expect(edited.status).toBe(200)
    expect(await edited.json()).toMatchObject({
      review_content: 'Edited upstream.',
      publish_date: first?.publish_date,
    })
    const after = await reviewsOf(product)
    expect(after.find((review) => review.review_id === first?.review_id)?.review_content).toBe(
      'Edited upstream.',
    )
    const removed = await fetch(`${sb.origin}/__sandbox/product-reviews/${second?.review_id}`, {
      method: 'DELETE',
    })
    expect(removed.status).toBe(204)
    const left = await reviewsOf(product)
    expect(left).toHaveLength(after.length - 1)
    expect(left.some((review) => review.review_id === second?.review_id)).toBe(false)
  })

  it('refuses an unknown id with 404 and a field an edit cannot change with 400', async () => {
    expect((await fetch(`${sb.origin}/__sandbox/product-reviews/nope`, { method: 'DELETE' })).status).toBe(
      404,
    )
    const [review] = await reviewsOf('SKU-002')
    const res = await post(`product-reviews/${review?.review_id}`, { publish_date: '2020-01-01T00:00:00Z' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: 'publish_date' })
  })
})

describe('POST /__sandbox/brand-reviews', () => {
  it('fills in a whole brand review from an empty object', async () => {
    const res = await post('brand-reviews', [{}])
    expect(res.status).toBe(201)
    const [review] = await res.json()
    expect(review.website_id).toBe(sb.websiteId)
    expect(review.review_rate).toBeGreaterThanOrEqual(1)
  })
})

describe('GET /__sandbox/media/{name}', () => {
  it('serves a review image as SVG', async () => {
    const res = await fetch(`${sb.origin}/__sandbox/media/1a2b3c4d-1-small.svg`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    expect(await res.text()).toMatch(/^<svg [^>]*width="160"/)
  })

  it('answers 404 for a name that is not an image', async () => {
    expect((await fetch(`${sb.origin}/__sandbox/media/..%2Fetc`)).status).toBe(404)
  })
})

describe('other admin routes', () => {
  it('lists no purchase events after a reset', async () => {
    expect(await (await fetch(`${sb.origin}/__sandbox/purchase-events`)).json()).toEqual([])
  })

  it('expires every token', async () => {
    const tokenRes = await fetch(`${sb.origin}/am/oauth2/alpha/access_token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'openid' }),
    })
    const { access_token } = await tokenRes.json()
    expect((await post('tokens/expire', '')).status).toBe(204)
    const res = await fetch(`${sb.origin}/purchase-event/websites/${sb.websiteId}/purchase-events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}` },
      body: '[]',
    })
    expect(res.status).toBe(401)
  })
})
