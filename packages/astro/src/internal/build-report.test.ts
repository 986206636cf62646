import { beforeEach, describe, expect, it } from 'vitest'
import {
  countingFetch,
  describeBuildCalls,
  emptyFetched,
  expectedReviews,
  reportedLister,
} from './build-report.ts'
import { shared, startRun } from './shared.ts'

beforeEach(() => {
  startRun({ clientOptions: undefined, command: 'build', storeDir: undefined, locale: undefined })
})

/** A lister of `total` reviews in pages of `size`, as the client's list operations page them. */
function lister(total: number, size: number) {
  const page = (from: number) => ({
    data: Array.from({ length: Math.min(size, total - from) }, (_, i) => ({ review_id: `r${from + i}` })),
    hasNextPage: () => from + size < total,
    getNextPage: async () => page(from + size),
  })
  return { list: async (_params: unknown) => page(0) }
}

/** Walks every page of a lister, as a sync does. */
async function walk(l: ReturnType<typeof reportedLister>): Promise<void> {
  let page = await l.list({})
  while (page.hasNextPage()) page = await page.getNextPage()
}

const noCheckpoint = { getCheckpoint: async () => undefined }
const withCheckpoint = {
  getCheckpoint: async () => ({ watermark: '2026-01-01T00:00:00Z' }) as never,
}

describe('reportedLister', () => {
  it('writes the progress of a first sync against the reviews it expects', async () => {
    const lines: string[] = []
    await walk(
      reportedLister(lister(1000, 200), {
        log: (line) => lines.push(line),
        store: noCheckpoint,
        mode: 'auto',
        expected: async () => 1000,
        product: true,
      }),
    )
    expect(lines.at(-1)).toBe('reviews 1,000/1,000, 5 calls')
    expect(shared().fetched.productSync).toEqual({ reviews: 1000, calls: 5 })
  })

  it('asks for no expected count on an incremental sync', async () => {
    const lines: string[] = []
    let asked = 0
    await walk(
      reportedLister(lister(3, 200), {
        log: (line) => lines.push(line),
        store: withCheckpoint,
        mode: 'auto',
        expected: async () => {
          asked++
          return 3000
        },
        product: true,
      }),
    )
    expect(asked).toBe(0)
    expect(lines).toEqual(['reviews 3, 1 call'])
  })

  it('leaves the lower bound to the product reviews', async () => {
    await walk(
      reportedLister(lister(500, 200), { log: () => {}, store: noCheckpoint, mode: 'auto', product: false }),
    )
    expect(shared().fetched.productSync).toBeUndefined()
  })
})

describe('expectedReviews', () => {
  it('sums the review counts of every product summary and records the products', async () => {
    const summaries = [5, 0, 7].map((count) => ({ ratings: { count_total: count } }))
    const client = {
      products: {
        list: async () => ({
          data: summaries.slice(0, 2),
          hasNextPage: () => true,
          getNextPage: async () => ({
            data: summaries.slice(2),
            hasNextPage: () => false,
            getNextPage: () => never(),
          }),
        }),
      },
    }
    expect(await expectedReviews(client as never)).toBe(12)
    expect(shared().fetched.products).toBe(3)
  })
})

function never(): never {
  throw new Error('no further page')
}

describe('countingFetch', () => {
  it('counts the API calls by data, not the token requests', async () => {
    const answer = async () => new Response('{}')
    const send = countingFetch(answer)
    await send('https://auth.example/token', { method: 'POST', body: 'grant_type=client_credentials' })
    await send('https://api.example/v1/published/products/reviews?limit=200', { method: 'GET' })
    await send('https://api.example/v1/published/products', { method: 'GET' })
    await send('https://api.example/v1/published/brands/reviews', { method: 'GET' })
    expect(shared().fetched.calls).toEqual({ product: 2, brand: 1, other: 0 })
  })
})

describe('describeBuildCalls', () => {
  it('puts the calls of the product data against their lower bound', () => {
    const fetched = emptyFetched()
    fetched.calls.product = 17
    fetched.productSync = { reviews: 3000, calls: 15 }
    fetched.products = 60
    expect(describeBuildCalls(fetched)).toBe(
      'API calls: 17 (lower bound 16) for the product data of 60 products and 3,000 reviews fetched',
    )
  })

  it('adds the calls for other data and the total', () => {
    const fetched = emptyFetched()
    fetched.calls = { product: 2, brand: 12, other: 0 }
    fetched.productSync = { reviews: 3, calls: 1 }
    fetched.products = 60
    expect(describeBuildCalls(fetched)).toBe(
      'API calls: 2 (lower bound 2) for the product data of 60 products and 3 reviews fetched; ' +
        '12 for brand data, 14 in all',
    )
  })
})
