import { describe, expect, it } from 'vitest'
import { addProductReviews } from './additions.ts'
import { indexOf, type SandboxRequest } from './context.ts'
import { publishedRoutes } from './routes/published.ts'
import { SandboxStore } from './state.ts'
import type { ProductReview } from './types.ts'

const settings = {
  seed: 3,
  clientId: 'id',
  clientSecret: 'secret',
  websiteId: '00000000-0000-4000-8000-000000000000',
  genesisSecret: 'g',
  rateLimit: 0,
  tokenTtl: 3600,
  products: 200,
  reviews: 2000,
  organizationName: 'Org',
}

/** A store whose review array counts how many of its items requests read. */
function countingStore(): { store: SandboxStore; reads: () => number } {
  const store = new SandboxStore(settings)
  let reads = 0
  const reviews = store.productReviews
  const counted = new Proxy(reviews, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++
      if (key === Symbol.iterator) {
        return function* () {
          for (const review of target) {
            reads++
            yield review
          }
        }
      }
      return Reflect.get(target, key, receiver)
    },
  })
  Object.defineProperty(store, 'productReviews', { value: counted })
  // The store's own methods stay reachable through the prototype; only the review list is swapped.
  store.index = indexOf(
    Object.assign(Object.create(store) as SandboxStore, { productReviews: counted, index: undefined }),
  )
  return { store, reads: () => reads }
}

function request(store: SandboxStore, path: string): unknown {
  const url = new URL(`http://127.0.0.1${path}`)
  const route = publishedRoutes.find((r) => r.pattern.test(url.pathname))
  if (route === undefined) throw new Error(`no route for ${path}`)
  const token = store.issueToken('published', 'id').accessToken
  const req: SandboxRequest = {
    method: 'GET',
    path: url.pathname,
    url,
    headers: { authorization: `Bearer ${token}` },
    body: Buffer.alloc(0),
    origin: 'http://127.0.0.1',
  }
  const response = route.handle(req, store, {}) as { body: unknown }
  return Buffer.isBuffer(response.body) ? JSON.parse(response.body.toString('utf8')) : response.body
}

const BASE = '/verified-reviews/v1/published'

describe('the catalogue index', () => {
  it('answers a product filter without reading every review, once built', () => {
    const { store, reads } = countingStore()
    request(store, `${BASE}/products/reviews?product_variation_id=SKU-001&limit=200`)
    const before = reads()
    const reviews = request(store, `${BASE}/products/reviews?product_variation_id=SKU-002&limit=200`)
    expect(reads() - before).toBeLessThan(100)
    expect((reviews as ProductReview[]).every((r) => r.product_variation_id === 'SKU-002')).toBe(true)
  })

  it('pages through every review without sorting them again for each page', () => {
    const { store, reads } = countingStore()
    request(store, `${BASE}/products/reviews?limit=200`)
    request(store, `${BASE}/products/ratings?type=product_variation_id&value=SKU-003,SKU-004`)
    request(store, `${BASE}/products?limit=200`)
    const before = reads()
    request(store, `${BASE}/products/reviews?limit=200&sort=publish_date`)
    request(store, `${BASE}/products/ratings?type=product_variation_id&value=SKU-005,SKU-006`)
    request(store, `${BASE}/products?limit=200&product_variation_id=SKU-007`)
    request(store, `${BASE}/products?limit=50`)
    expect(reads() - before).toBeLessThan(100)
  })

  it('keeps a sorted walk in order as reviews are added', () => {
    const store = new SandboxStore(settings)
    const first = request(store, `${BASE}/products/reviews?limit=200&sort=publish_date&desc=publish_date`)
    addProductReviews(
      store,
      Buffer.from(JSON.stringify([{ product_variation_id: 'SKU-007' }, { product_variation_id: 'NEW-1' }])),
    )
    const newest = request(
      store,
      `${BASE}/products/reviews?limit=200&sort=publish_date&desc=publish_date`,
    ) as ProductReview[]
    expect(newest.slice(0, 2).map((r) => r.product_variation_id)).toEqual(['NEW-1', 'SKU-007'])
    expect(newest.slice(2).map((r) => r.review_id)).toEqual(
      (first as ProductReview[]).slice(0, 198).map((r) => r.review_id),
    )
    const added = request(store, `${BASE}/products/reviews?product_variation_id=NEW-1`) as ProductReview[]
    expect(added).toHaveLength(1)
    expect(store.products.map((p) => p.product_variation_id)).toContain('NEW-1')
    const ratings = request(store, `${BASE}/products/ratings?type=product_variation_id&value=NEW-1`) as {
      count_total: number
    }[]
    expect(ratings[0]?.count_total).toBe(1)
  })

  it('counts an added review in its product summary', () => {
    const store = new SandboxStore(settings)
    const before = request(store, `${BASE}/products?product_variation_id=SKU-009`) as {
      ratings: { count_total: number }
    }[]
    addProductReviews(store, Buffer.from(JSON.stringify([{ product_variation_id: 'SKU-009' }])))
    const after = request(store, `${BASE}/products?product_variation_id=SKU-009`) as {
      ratings: { count_total: number }
    }[]
    expect(after[0]?.ratings.count_total).toBe((before[0]?.ratings.count_total ?? 0) + 1)
  })

  it('refuses an added review whose id is held, as before', () => {
    const store = new SandboxStore(settings)
    const held = store.productReviews[5]?.review_id
    expect(() =>
      addProductReviews(
        store,
        Buffer.from(JSON.stringify([{ product_variation_id: 'SKU-001', review_id: held }])),
      ),
    ).toThrow(/already taken/)
  })
})
