import { createHash } from 'node:crypto'
import { NotFoundError, ValidationError } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

describe('legacy.products against the sandbox', () => {
  it('gets ratings keyed by every requested reference, null for one without reviews', async () => {
    const { data } = await sb.client().legacy.products.ratings.get({ ref: ['SKU-002', 'SKU-001', 'NOPE'] })
    expect(Object.keys(data).sort()).toEqual(['NOPE', 'SKU-001', 'SKU-002'])
    expect(data.NOPE).toBeNull()
    expect(data['SKU-001']).toMatchObject({ nb_total: expect.any(Number), average: expect.any(Number) })
  })

  it('sends references sorted, so the same set always makes the same address', async () => {
    const urls: string[] = []
    const vr = sb.client({
      fetch: (url, init) => {
        urls.push(url)
        return fetch(url, init)
      },
    })
    await vr.legacy.products.ratings.get({ ref: ['SKU-002', 'SKU-001'] })
    await vr.legacy.products.ratings.get({ ref: ['SKU-001', 'SKU-002'] })
    expect(urls[0]).toBe(urls[1])
  })

  it('keeps a reference holding a comma as one reference', async () => {
    const { data } = await sb.client().legacy.products.ratings.get({ ref: ['A,B', 'SKU-001'] })
    expect(Object.keys(data).sort()).toEqual(['A,B', 'SKU-001'])
  })

  it('gets reviews with the filters applied to each reference', async () => {
    const { data } = await sb.client().legacy.products.reviews.get({
      ref: ['SKU-001', 'SKU-002'],
      rate: [5],
      sortBy: ['review_date'],
      sortDirection: 'ASC',
      limit: 3,
      offset: 1,
    })
    for (const reviews of Object.values(data)) {
      expect(reviews?.length).toBeLessThanOrEqual(3)
      expect(reviews?.every((review) => review.rate === 5)).toBe(true)
      const dates = reviews?.map((review) => review.review_date) ?? []
      expect(dates).toEqual([...dates].sort())
    }
  })

  it('throws NotFoundError for another website', async () => {
    await expect(
      sb.client().legacy.products.ratings.get({ websiteId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toThrow(NotFoundError)
  })

  it('refuses a sortBy field that legacy reviews do not have, before sending anything', async () => {
    const before = (await sb.stats()).total
    const error = await sb
      .client()
      .legacy.products.reviews.get({ sortBy: ['stars'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe('sortBy')
    expect((await sb.stats()).total).toBe(before)
  })
})

describe('genesis against the sandbox', () => {
  it('derives the daily token as sha256 hex of idWebsite, secret and the UTC date', async () => {
    const urls: string[] = []
    const vr = sb.client({
      fetch: (url, init) => {
        urls.push(url)
        return fetch(url, init)
      },
    })
    await vr.genesis.website.get({ range: 1 })
    const date = new Date().toISOString().slice(0, 10)
    const expected = createHash('sha256')
      .update(`${sb.sandbox.websiteId}${sb.sandbox.genesisSecret}${date}`)
      .digest('hex')
    expect(new URL(urls[0] ?? '').searchParams.get('token')).toBe(expected)
  })

  it('gets a page of brand reviews', async () => {
    const answer = await sb
      .client()
      .genesis.website.get({ range: 5, p: 2, order_by: 'rate', order_type: 'desc' })
    expect(answer.reviews).toHaveLength(5)
    expect(answer.page).toBe(2)
    expect(Number(answer.count)).toBeGreaterThan(0)
    expect(answer.reviews[0]).toMatchObject({ id_review: expect.any(String), rate: expect.any(String) })
  })

  it('gets product reviews keyed by product', async () => {
    const answer = await sb.client().genesis.product.reviews({ product: ['SKU-001', 'NOPE'], limit: 2 })
    expect(answer.NOPE).toEqual([])
    expect(answer['SKU-001']).toHaveLength(2)
    expect(answer['SKU-001']?.[0]?.id_product).toBe('SKU-001')
  })

  it('gets product averages keyed by product', async () => {
    const answer = await sb
      .client()
      .genesis.product.average({ product: ['SKU-001'], field: 'rate', sign: '>=', compare: 4 })
    expect(answer['SKU-001']?.[0]).toMatchObject({ rate: expect.any(String), count: expect.any(String) })
  })

  it('reads the brand static file', async () => {
    const brand = await sb.client().genesis.static.brand()
    expect(brand.review_count).toBeGreaterThan(0)
    expect(brand.average).toBeGreaterThanOrEqual(1)
    expect(brand.average).toBeLessThanOrEqual(5)
  })

  it('reads the shop static file, one entry per shop', async () => {
    const shops = await sb.client().genesis.static.shops()
    expect(shops.length).toBeGreaterThan(0)
    expect(shops[0]).toMatchObject({ id_shop: expect.any(String), review_number: expect.any(Number) })
  })

  it('needs the Genesis secret, and says so before sending anything', async () => {
    const error = await sb
      .client({ genesisSecret: '' })
      .genesis.website.get()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe('genesisSecret')
  })
})
